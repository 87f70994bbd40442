#pragma once
// Prescribed motion of fixed and kinematic bodies (DESIGN §3): their DOFs are Dirichlet conditions.
#include <optional>

#include "affix/body/affine_body.hpp"

namespace affix {

/// The state a Dirichlet body must have at time t. Fixed bodies stay at q0. A constant twist moves the
/// origin at `velocity` and turns about it at `angular_velocity`. Keyframes interpolate linearly in
/// position and by slerp in rotation; the body's scene pose is an implicit key at t = 0 (unless the
/// first key is at 0), and the last key is held.
Vec12 prescribed_state(const AffineBody& body, double t);

/// The same, unless a target was set from outside (Simulator::set_kinematic_target), which replaces the
/// scene's motion: the body reaches it at the end of the step and holds it.
inline Vec12 prescribed_state(const AffineBody& body, double t, const std::optional<Vec12>& target) {
  return target ? *target : prescribed_state(body, t);
}

}  // namespace affix
