#pragma once
// `affix generate drop`: bodies of mixed shapes falling onto the ground from staggered heights.
//
// `bodies` bodies cycling through a box (0.16 m cube), a sphere (radius 0.1 m), a capsule (radius
// 0.06 m, length 0.12 m), a cylinder (radius 0.08 m, length 0.16 m) and a torus (major 0.1 m, minor
// 0.035 m), density 1000 kg/m³, friction 0.5, random orientations, spread one layer deep over an
// n × n grid, n = ⌈√bodies⌉, each moved by up to 0.03 m sideways and raised by a random 0 to 0.5 m.
// The grid pitch is the largest bounding-sphere diameter plus the sideways jitter twice plus the
// clearance, and every body starts at least 0.1 m above the ground, so nothing starts closer than
// 5 mm to anything. Everything random comes from --seed. Ground (friction 0.5); dt 0.01 s, 2 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct DropOptions {
  long long bodies = 20;    ///< --bodies, 1 … kMaxContactBodies
  long long seed = 1;       ///< --seed, ≥ 0
};

Scene drop(const DropOptions& options);

}  // namespace affix::generate
