#pragma once
// `affix generate net`: a square net of small spheres held up by its four corners.
//
// size × size spheres (radius 0.03 m, density 1000 kg/m³) on a horizontal grid 0.1 m apart, centred
// on the z axis at height H = 0.1·(size − 1) + 0.1 m (the net cannot sag further than that). Each
// sphere is joined to its grid neighbours by ball joints halfway between them (so the net is a
// fishnet of rigid crosses, free to fold), and the four corner spheres are pinned to the world by
// ball joints at their centres. Non-neighbours start at least 0.1·√2 m apart (0.08 m gaps) and collide.
// No ground; dt 0.01 s, 2 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct NetOptions {
  long long size = 10;  ///< --size n: n × n spheres, 2 … 316 (n² ≤ kMaxBodies)
};

/// size² bodies, 2·size·(size − 1) + 4 joints; throws InputError naming --size when out of range.
Scene net(const NetOptions& options);

}  // namespace affix::generate
