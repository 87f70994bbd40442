#pragma once
// Constant external loads on an affine body as generalized forces f ∈ R¹², entering the incremental
// potential as the linear potential P(q) = −fᵀq (so ∇P = −f, ∇²P = 0).
#include <functional>
#include <vector>

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

/// The scene's forces as the bodies carry them: each force's world point at t = 0 (its body's origin
/// when absent) in its body's rest frame.
std::vector<Vec3> force_rest_points(const std::vector<ForceDef>& forces, const std::vector<AffineBody>& bodies);

/// loads[i] += the generalized force of every force on body i active at t (start ≤ t < end), torques
/// taken at A_of(i), the body's A at t. Summed with Neumaier's compensation, so that two opposite
/// 1e200 N forces cancel without taking gravity's 1e4 N with them, as a plain sum would.
void add_external_loads(std::vector<Vec12>& loads, const std::vector<ForceDef>& forces,
                        const std::vector<Vec3>& rest_points, double t, const std::function<Mat3(int)>& A_of);

/// Potential of a constant generalized force: −fᵀq.
inline double linear_potential(const Vec12& f, const Vec12& q) { return -f.dot(q); }

}  // namespace affix
