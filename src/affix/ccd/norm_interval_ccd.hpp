#pragma once
// CCD for the joint limits: along x(α) = x + α·dx the difference of two points is linear in α,
// d(α) = d₀ + α·dd (affine bodies move every point on a line), so whether ‖d(α)‖ stays in an
// interval [r_min, r_max] is a pair of quadratic inequalities in α, solved exactly.
#include "affix/math/types.hpp"

namespace affix {

/// The largest α ∈ [0, 1] such that r_min ≤ ‖d₀ + t·dd‖ ≤ r_max for every t ∈ [0, α]. Requires
/// r_min < ‖d₀‖ < r_max (r_min may be 0, and then ‖d₀‖ too; r_max may be +inf); returns 1 when the whole segment stays
/// inside.
double norm_interval_max_step(const Vec3& d0, const Vec3& dd, double r_min, double r_max);

}  // namespace affix
