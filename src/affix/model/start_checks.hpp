#pragma once
// The start checks every method needs (DESIGN §4): bodies that may collide must not overlap at t = 0,
// and a moving body must start above the ground. A barrier is infinite there, and no method can tell
// which way an overlap should resolve, so such a scene is bad input.
#include "affix/model/model.hpp"

namespace affix {

/// Throws InputError naming the first moving body (scene order) with a vertex on or below the ground.
void refuse_bodies_below_ground(const Model& model);

/// Throws InputError naming the first intersecting pair (smallest indices), if any.
void refuse_intersecting_bodies(const Model& model);

}  // namespace affix
