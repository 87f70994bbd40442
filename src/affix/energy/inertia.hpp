#pragma once
// Inertia term of the incremental potential (Lan 2022 Eq. 9; Chen 2022 Eq. 1):
//   E(q) = ½ (q − q̃)ᵀ M (q − q̃),   ∇E = M (q − q̃),   ∇²E = M,
// with M the constant ABD mass matrix (a Mat12, or an AffineMass: affine_mass.hpp) and q̃ the integrator's
// predicted state.
#include "affix/math/types.hpp"

namespace affix {

template <class Mass>
double inertia_energy(const Mass& M, const Vec12& q, const Vec12& q_tilde) {
  const Vec12 d = q - q_tilde;
  return 0.5 * d.dot(M * d);
}
template <class Mass>
Vec12 inertia_gradient(const Mass& M, const Vec12& q, const Vec12& q_tilde) {
  return M * Vec12(q - q_tilde);
}

/// Kinetic energy ½ q̇ᵀ M q̇ = ½ ∫ρ ‖ẋ‖² dV: exact for affine motion.
template <class Mass>
double kinetic_energy(const Mass& M, const Vec12& qdot) {
  return 0.5 * qdot.dot(M * qdot);
}

}  // namespace affix
