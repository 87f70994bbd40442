#pragma once
// GIF and MP4 animations from a folder of numbered pictures, by running the `ffmpeg` executable as a
// child process (no shell, no linking against its libraries).
//   GIF: one pass with a palette fitted to the pictures — split → palettegen → paletteuse — since the
//        default 256-colour web palette bands the shading badly; frames store only what changed.
//   MP4: H.264 in yuv420p (what every player takes), padded to even width and height, which it needs.
#include <filesystem>
#include <optional>
#include <string>

namespace affix {

enum class AnimationFormat { kGif, kMp4 };

/// The path of `name` on $PATH (the first executable file), or nothing.
std::optional<std::filesystem::path> find_executable(const std::string& name);

/// Throws InputError saying ffmpeg is needed for `option` (`--gif`) and how to install it, when it is
/// not on $PATH. Called before any picture is drawn, so a missing encoder costs nothing.
std::filesystem::path require_ffmpeg(const std::string& option);

/// Encodes pictures 0 … count−1 of `pictures_dir` (frame_selection.hpp's names) at `fps` into `file`
/// (overwritten; its folder created). Throws InputError when ffmpeg is missing, std::runtime_error with
/// the end of ffmpeg's log when it fails.
void encode_animation(const std::filesystem::path& pictures_dir, int count, int fps,
                      const std::filesystem::path& file, AnimationFormat format);

}  // namespace affix
