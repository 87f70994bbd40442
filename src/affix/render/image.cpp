#include "affix/render/image.hpp"

#include <cassert>

namespace affix {

Image downsample(const Image& image, int factor) {
  assert(factor >= 1 && image.width % factor == 0 && image.height % factor == 0);
  if (factor == 1) return image;
  Image out(image.width / factor, image.height / factor);
  const int samples = factor * factor;
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      int sum[3] = {0, 0, 0};
      for (int dy = 0; dy < factor; ++dy) {
        for (int dx = 0; dx < factor; ++dx) {
          const std::uint8_t* in = image.pixel(x * factor + dx, y * factor + dy);
          for (int c = 0; c < 3; ++c) sum[c] += in[c];
        }
      }
      // Rounded mean: (sum + samples/2) / samples.
      for (int c = 0; c < 3; ++c) out.pixel(x, y)[c] = static_cast<std::uint8_t>((sum[c] + samples / 2) / samples);
    }
  }
  return out;
}

Image from_rgba_bottom_up(const std::uint8_t* rgba, int width, int height) {
  Image out(width, height);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* row = rgba + static_cast<std::size_t>(height - 1 - y) * width * 4;
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < 3; ++c) out.pixel(x, y)[c] = row[x * 4 + c];
    }
  }
  return out;
}

}  // namespace affix
