#pragma once
// `affix generate pulley`: two loads on ropes over a wheel, tied together below by a bar, so that the
// joints close a loop (He 2026 §5.4: a joint graph with a cycle, solved by the direct dual solver).
//
// The wheel: a cylinder (radius 0.3 m, 0.05 m thick, density 1000 kg/m³) with its axis along y, its
// centre at (0, 0, H), hinged to the world about y at its centre, so it turns freely. Two ropes of
// `links` capsule links each (radius 0.01 m, 0.1 m tip to tip, density 1000 kg/m³) hang straight down
// from the points x = ±0.36 m of the wheel's horizontal diameter, 0.06 m beyond its rim (as if on short
// arms, so that the ropes and loads clear the wheel), the first link of each joined to the wheel there,
// each next link to the one above at their shared tip (ball joints). A 0.1 m box hangs from the
// bottom of each rope by a ball joint at the middle of its top face: the left one of density
// 1000·R kg/m³ (R the load ratio), the right one of density 1000 kg/m³. A bar (a capsule along x,
// radius 0.015 m, its axis 0.025 m below the boxes, 0.72 m between its joints) is joined by ball joints
// to the middle of each box's bottom face. The loop is world → wheel → left rope → left load → bar →
// right load → right rope → wheel: 2·links + 4 bodies and 2·links + 5 joints. With R > 1 the heavier
// side goes down, turning the wheel and tilting the bar. H = 0.1·links + 0.5 m. No ground (nothing
// touches: the wheel and the first links are joined, everything else starts apart); dt 0.01 s, 2 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct PulleyOptions {
  long long links = 20;      ///< --links: links per rope, 2 … (kMaxBodies − 4) / 2 (the bar clears the wheel)
  double load_ratio = 2.0;   ///< --load-ratio R: left load over right load, 1e-3 … 1e3
};

Scene pulley(const PulleyOptions& options);

}  // namespace affix::generate
