#pragma once
// `affix generate spider`: Tomcin 2014 Fig. 5a, one body carrying many joints: a flat cylinder
// (radius 0.5 m, 0.1 m thick, density 1000 kg/m³) at height 1 m with --legs legs spaced evenly around
// its rim. Leg k, at angle φ = 2πk/legs, is a thigh (a 0.6 m capsule of radius 0.02 m, density
// 1000 kg/m³) on a ball joint at the rim point (0.5 cos φ, 0.5 sin φ, 1), rising outwards at 30°, and a
// shin (a 0.8 m capsule) on a hinge at the knee, about the leg's tangent, pointing down and out at 60°
// from the horizontal; legs are in collision group 2 with mask 1 (they never touch each other, only
// the body, to which only the thighs are joined). The body's clique of joints makes A dense there (§5): the scene that body
// splitting is for. Nothing touches (no ground; the legs are joined only to the body and to their own
// thighs); the impulse solver at dt 0.01 s, 1 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct SpiderOptions {
  long long legs = 50;  ///< --legs, 1 … 1000
};

Scene spider(const SpiderOptions& options);

}  // namespace affix::generate
