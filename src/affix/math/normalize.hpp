#pragma once
// Normalising user-given directions and quaternions without overflow or underflow. The textbook
// v / ‖v‖ squares the components: [1e200, 1e200, 0] gives ‖v‖ = inf (and a zero vector), [1e-200, 0, 0]
// gives ‖v‖ = 0 (and "zero vector"), although both have a perfectly good direction. Dividing by the
// largest |component| first brings every component into [-1, 1] with one of them ±1, so the norm of
// what is left lies in [1, 2] and cannot overflow or underflow.
#include <optional>

#include "affix/math/types.hpp"

namespace affix {

/// ‖v‖, inf only when the true norm exceeds the largest double; NaN if a component is NaN.
double scaled_norm(const Vec3& v);

/// v / ‖v‖; nullopt when v is zero or has a non-finite component.
std::optional<Vec3> normalized_direction(const Vec3& v);

/// q / ‖q‖ (all four components); nullopt when q is zero or has a non-finite component.
std::optional<Quat> normalized_quaternion(const Quat& q);

}  // namespace affix
