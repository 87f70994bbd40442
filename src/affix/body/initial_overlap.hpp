#pragma once
// Bodies that may collide must not overlap at t = 0: the barrier is infinite there, and no method
// can tell which way the overlap should resolve. Such a scene is bad input (DESIGN §4).
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// Throws InputError naming the first intersecting pair (smallest indices), if any.
void refuse_intersecting_bodies(const Scene& scene, const std::vector<AffineBody>& bodies);

}  // namespace affix
