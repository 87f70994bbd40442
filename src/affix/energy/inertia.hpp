#pragma once
// Inertia term of the incremental potential (Lan 2022 Eq. 9; Chen 2022 Eq. 1):
//   E(q) = ½ (q − q̃)ᵀ M (q − q̃),   ∇E = M (q − q̃),   ∇²E = M,
// with M the constant ABD mass matrix and q̃ the integrator's predicted state.
#include "affix/math/types.hpp"

namespace affix {

inline double inertia_energy(const Mat12& M, const Vec12& q, const Vec12& q_tilde) {
  const Vec12 d = q - q_tilde;
  return 0.5 * d.dot(M * d);
}
inline Vec12 inertia_gradient(const Mat12& M, const Vec12& q, const Vec12& q_tilde) {
  return M * (q - q_tilde);
}

/// Kinetic energy ½ q̇ᵀ M q̇ = ½ ∫ρ ‖ẋ‖² dV: exact for affine motion.
inline double kinetic_energy(const Mat12& M, const Vec12& qdot) { return 0.5 * qdot.dot(M * qdot); }

}  // namespace affix
