#pragma once
// An 8-bit RGB picture in memory, rows top to bottom: what the renderer returns and the PNG writer takes.
#include <cstdint>
#include <vector>

namespace affix {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  ///< width·height·3 bytes, row-major from the top-left pixel

  Image() = default;
  Image(int w, int h) : width(w), height(h), rgb(static_cast<std::size_t>(w) * h * 3, 0) {}

  std::uint8_t* pixel(int x, int y) { return &rgb[(static_cast<std::size_t>(y) * width + x) * 3]; }
  const std::uint8_t* pixel(int x, int y) const { return &rgb[(static_cast<std::size_t>(y) * width + x) * 3]; }
};

/// Box-filter downsampling by an integer factor (each output pixel is the mean of factor² input
/// pixels): rendering at factor× and averaging is supersampling anti-aliasing. The input's size must be
/// a multiple of the factor.
Image downsample(const Image& image, int factor);

/// An Image from a bottom-up RGBA buffer (OpenGL's glReadPixels order), alpha dropped.
Image from_rgba_bottom_up(const std::uint8_t* rgba, int width, int height);

}  // namespace affix
