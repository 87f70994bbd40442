#pragma once
// Prescribed motion of fixed and kinematic bodies (DESIGN §3): their DOFs are Dirichlet conditions.
#include "affix/body/affine_body.hpp"

namespace affix {

/// The state a Dirichlet body must have at time t. Fixed bodies stay at q0. A constant twist moves the
/// origin at `velocity` and turns about it at `angular_velocity`. Keyframes interpolate linearly in
/// position and by slerp in rotation; the body's scene pose is an implicit key at t = 0 (unless the
/// first key is at 0), and the last key is held.
Vec12 prescribed_state(const AffineBody& body, double t);

}  // namespace affix
