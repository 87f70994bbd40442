#pragma once
// PNG files through libpng: 8-bit RGB, no interlacing, default compression.
#include <filesystem>

#include "affix/render/image.hpp"

namespace affix {

/// Writes `image` to `file` (overwriting it). Throws InputError naming the file when it cannot be
/// created — its folder is the user's choice (`--out`) — and std::runtime_error when libpng fails.
void write_png(const std::filesystem::path& file, const Image& image);

}  // namespace affix
