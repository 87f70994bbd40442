#pragma once
// Which trajectory frames become pictures, what the picture files are called, and how fast the
// animation plays.
//
// `--every N` keeps trajectory frames 0, N, 2N, … (the first frame always; the last one only when it
// falls on the stride, so every picture is the same time apart); read_trajectory keeps just those.
// Pictures are numbered 0, 1, 2, … in the order they are drawn — not by trajectory frame — so that an
// encoder reading the pattern `%05d.png` finds an unbroken sequence.
#include <filesystem>
#include <string>
#include <vector>

namespace affix {

/// The name of picture number `picture`: five digits, zero-padded (`00042.png`); more digits past 99999.
std::string picture_file_name(int picture);

/// The printf pattern an encoder reads the pictures with (`%05d.png`).
inline constexpr const char* kPicturePattern = "%05d.png";

/// Deletes the pictures of an earlier render into `dir` numbered `count` and up (names like
/// picture_file_name's), so the folder holds exactly this render's sequence. Returns how many went.
int remove_stale_pictures(const std::filesystem::path& dir, int count);

/// Real-time playback: pictures per second = (pictures − 1) / (time of the last − time of the first),
/// rounded, within [1, max_fps]; `fallback` when fewer than two pictures or no time passes.
int playback_fps(const std::vector<double>& picture_times, int max_fps, int fallback = 25);

}  // namespace affix
