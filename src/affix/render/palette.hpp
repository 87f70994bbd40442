#pragma once
// Body colours: eight clearly distinct, moderately saturated hues that stay readable under shading and
// against the pale grey ground; beyond eight they repeat, alternately darker and lighter, so that
// neighbours in scene order still differ.
#include "affix/math/types.hpp"

namespace affix {

/// RGB in [0, 1] for body `index` (scene order), ≥ 0.
Vec3 body_colour(int index);

}  // namespace affix
