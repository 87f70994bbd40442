#pragma once
// The ground as drawn: a checkerboard on the plane z = height around the scene, fading into the
// backdrop with distance, so it reads as a floor without a visible edge. Tile size is a round number
// (1, 2 or 5 × 10^k m) of about a sixth of the scene's size, so the tiles double as a scale bar.
#include <vector>

#include "affix/geometry/aabb.hpp"

namespace affix {

struct GroundGrid {
  double height = 0.0;
  double tile = 1.0;         ///< edge of one square (m)
  Vec2 centre = Vec2::Zero();
  double fade_start = 1.0;   ///< distance from the centre where the fade begins (m)
  double radius = 2.0;       ///< distance where the ground has become the backdrop (m)
  std::vector<float> positions;  ///< xyz per vertex, two triangles per tile
  std::vector<float> colours;    ///< rgb per vertex: the checker shade blended towards the backdrop
};

/// The smallest 1, 2 or 5 × 10^k not below `value` (> 0).
double round_step(double value);

/// A grid sized for `bodies` (the bodies' box over the whole run) with checker shades `light` and
/// `dark` fading into `background`.
GroundGrid make_ground_grid(double height, const Aabb& bodies, const Vec3& background,
                            const Vec3& light = Vec3(0.87, 0.875, 0.89), const Vec3& dark = Vec3(0.80, 0.805, 0.83));

}  // namespace affix
