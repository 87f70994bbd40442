#pragma once
// Constant external loads on an affine body as generalized forces f ∈ R¹², entering the incremental
// potential as the linear potential P(q) = −fᵀq (so ∇P = −f, ∇²P = 0).
#include "affix/body/affine_body.hpp"

namespace affix {

/// Gravity: f = ∫ρ J(x̄)ᵀ g dV = [m g; g₀ m c̄; g₁ m c̄; g₂ m c̄] (J from affine_body.hpp).
Vec12 gravity_force(const AffineBody& body, const Vec3& g);

/// A world force acting on rest point x̄: f = J(x̄)ᵀ F. Exact for affine motion.
Vec12 point_force(const Vec3& x_bar, const Vec3& force);

/// A world torque τ. For rigid motion Ȧ = [ω]ₓA, and the generalized force F_A = ½[τ]ₓA does power
/// F_A : Ȧ = ½ tr(Aᵀ[τ]ₓᵀ[ω]ₓA) = ½ tr([τ]ₓᵀ[ω]ₓ) = τ·ω, which is what a torque must do. A is taken
/// at the start of the step (the load is held constant over the step, like every other external load).
Vec12 torque_force(const Mat3& A, const Vec3& torque);

/// Potential of a constant generalized force: −fᵀq.
inline double linear_potential(const Vec12& f, const Vec12& q) { return -f.dot(q); }

}  // namespace affix
