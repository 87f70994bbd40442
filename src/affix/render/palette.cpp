#include "affix/render/palette.hpp"

#include <array>

namespace affix {

Vec3 body_colour(int index) {
  static const std::array<Vec3, 8> kHues = {
      Vec3(0.91, 0.45, 0.32),  // coral
      Vec3(0.28, 0.56, 0.82),  // steel blue
      Vec3(0.94, 0.74, 0.26),  // mustard
      Vec3(0.42, 0.72, 0.46),  // sage
      Vec3(0.62, 0.44, 0.76),  // plum
      Vec3(0.24, 0.71, 0.70),  // teal
      Vec3(0.89, 0.51, 0.67),  // rose
      Vec3(0.72, 0.55, 0.38),  // tan
  };
  const Vec3& hue = kHues[static_cast<std::size_t>(index) % kHues.size()];
  // Round 0 as is; odd rounds darker (×0.75); even rounds lighter (a quarter of the way to white).
  const int round = index / static_cast<int>(kHues.size());
  if (round == 0) return hue;
  if (round % 2 == 1) return 0.75 * hue;
  return hue + 0.25 * (Vec3::Ones() - hue);
}

}  // namespace affix
