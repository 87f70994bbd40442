#pragma once
// Inequality joint limits as barriers (Chen 2022 §4.3, Eq. 13–14): P(x) = κ b(c(x)) with IPC's
// clamped log barrier b (barrier.hpp) and clamping distance ĉ. Every affix limit is a bounded
// distance between two points x = (x₀, x₁) ∈ R⁶ (Chen 2022 reduces them all to this form):
//   upper (Eq. 15, 17 c₂, 18): c = bound − ‖x₀ − x₁‖ ≥ 0
//   lower (Eq. 16, 17 c₁):     c = ‖x₀ − x₁‖ − bound ≥ 0
// A sliding range (Eq. 17) and a rotation range (Eq. 18) measure the distance to a point of the
// other body, with a bound that is a rest length of that body (constant for a rigid body).
#include "affix/energy/stencil_derivatives.hpp"

namespace affix {

enum class BoundSide { upper, lower };

/// c(x) (m); negative means the limit is violated.
double limit_function(const Vec6& x, double bound, BoundSide side);

/// κ b(c(x)) with gradient and Hessian in x (not projected); zero when c ≥ ĉ. Needs c > 0 and
/// x₀ ≠ x₁.
PairDerivatives joint_limit_barrier(const Vec6& x, double bound, BoundSide side, double chat, double kappa);

}  // namespace affix
