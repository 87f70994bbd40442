#include "affix/render/frame_selection.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace affix {

std::string picture_file_name(int picture) {
  char name[32];
  std::snprintf(name, sizeof name, kPicturePattern, picture);
  return name;
}

int remove_stale_pictures(const std::filesystem::path& dir, int count) {
  namespace fs = std::filesystem;
  int removed = 0;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string stem = entry.path().stem().string();
    // Only names picture_file_name writes: digits only (5 to 9 of them), `.png`, no other leading zeros.
    const bool digits = entry.path().extension() == ".png" && stem.size() >= 5 && stem.size() <= 9 &&
                        std::all_of(stem.begin(), stem.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!digits || !entry.is_regular_file()) continue;
    const int picture = std::stoi(stem);
    if (picture >= count && picture_file_name(picture) == stem + ".png") removed += fs::remove(entry.path(), error) ? 1 : 0;
  }
  return removed;
}

int playback_fps(const std::vector<double>& picture_times, int max_fps, int fallback) {
  if (picture_times.size() < 2) return std::clamp(fallback, 1, max_fps);
  const double span = picture_times.back() - picture_times.front();
  if (!(span > 0)) return std::clamp(fallback, 1, max_fps);
  // Clamped before rounding: a span of 1e-300 s must not overflow the conversion to int.
  const double fps = static_cast<double>(picture_times.size() - 1) / span;
  return static_cast<int>(std::lround(std::clamp(fps, 1.0, static_cast<double>(std::max(1, max_fps)))));
}

}  // namespace affix
