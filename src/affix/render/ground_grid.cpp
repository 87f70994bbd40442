#include "affix/render/ground_grid.hpp"

#include <algorithm>
#include <cmath>

namespace affix {

double round_step(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * decade >= value * (1 - 1e-12)) return m * decade;
  }
  return 10.0 * decade;
}

namespace {

/// 0 inside `start`, 1 beyond `end`, smooth in between: s = t²(3 − 2t), t = (r − start)/(end − start).
double fade(double r, double start, double end) {
  const double t = std::clamp((r - start) / (end - start), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

}  // namespace

GroundGrid make_ground_grid(double height, const Aabb& bodies, const Vec3& background, const Vec3& light,
                            const Vec3& dark) {
  GroundGrid grid;
  grid.height = height;
  const Vec3 size = bodies.is_empty() ? Vec3::Ones() : bodies.diagonal();
  const double extent = std::max({size.x(), size.y(), size.z(), 1e-3});
  grid.tile = round_step(extent / 6.0);
  grid.centre = bodies.is_empty() ? Vec2::Zero() : Vec2(bodies.center().head<2>());
  // The floor stays solid a little past the bodies' footprint and is gone at a few scene sizes.
  const double footprint = 0.5 * std::hypot(size.x(), size.y());
  grid.fade_start = footprint + 0.5 * extent;
  grid.radius = footprint + 3.0 * extent;
  // Tiles on the world grid (multiples of `tile`), so the pattern stays put when the scene moves. The
  // tile numbers are 64-bit: a small scene far from the origin (1e12 m, framing's limit, over tiles of
  // 1e-4 m) counts past an int. There are always about 50 tiles across, radius/tile being bounded.
  const auto first_i = static_cast<long long>(std::floor((grid.centre.x() - grid.radius) / grid.tile));
  const auto first_j = static_cast<long long>(std::floor((grid.centre.y() - grid.radius) / grid.tile));
  const auto count = static_cast<long long>(std::ceil(2 * grid.radius / grid.tile)) + 1;
  for (long long i = first_i; i < first_i + count; ++i) {
    for (long long j = first_j; j < first_j + count; ++j) {
      const Vec3& shade = ((i + j) % 2 == 0) ? light : dark;
      const double x = static_cast<double>(i), y = static_cast<double>(j);
      const Vec2 corners[4] = {grid.tile * Vec2(x, y), grid.tile * Vec2(x + 1, y), grid.tile * Vec2(x + 1, y + 1),
                               grid.tile * Vec2(x, y + 1)};
      double nearest = 1e300;
      for (const Vec2& c : corners) nearest = std::min(nearest, (c - grid.centre).norm());
      if (nearest > grid.radius) continue;  // wholly faded: the backdrop shows anyway
      for (int k : {0, 1, 2, 0, 2, 3}) {  // two counter-clockwise triangles seen from above
        const Vec2& c = corners[k];
        const Vec3 colour = shade + fade((c - grid.centre).norm(), grid.fade_start, grid.radius) * (background - shade);
        grid.positions.insert(grid.positions.end(), {float(c.x()), float(c.y()), float(height)});
        grid.colours.insert(grid.colours.end(), {float(colour.x()), float(colour.y()), float(colour.z())});
      }
    }
  }
  return grid;
}

}  // namespace affix
