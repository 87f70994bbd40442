#pragma once
// `affix generate pile`: boxes dropped onto the ground from a loose, jittered block, so that they land
// on one another and pile up.
//
// `boxes` boxes with edges drawn between 0.1 and 0.2 m (density 500 kg/m³, friction 0.5) and random
// orientations, placed at the points of a cubic lattice n boxes wide and deep, n = ⌈∛boxes⌉, filled
// row by row and layer by layer, each point moved by up to 0.02 m per axis. The lattice pitch is the
// largest bounding-sphere diameter (0.2·√3 m) plus that jitter twice plus the clearance, and the
// lowest layer starts the clearance above the ground, so no two boxes and no box and the ground start
// closer than 5 mm. Everything random comes from --seed: the same options give the same file.
// Ground (friction 0.5); dt 0.01 s, 2 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct PileOptions {
  long long boxes = 20;     ///< --boxes, 1 … kMaxContactBodies
  long long seed = 1;       ///< --seed, ≥ 0
};

Scene pile(const PileOptions& options);

}  // namespace affix::generate
