#pragma once
// The exact Newton matrix of the joint correction, a fallback for where Tomcin 2014's constant
// approximation (Eq. 2, ∇c⁽ˡ⁺¹⁾ ≈ hA) stalls. Not in the paper.
//
// Impulses p act at t⁽ˡ⁾ along J(x⁽ˡ⁾)ᵀ, u = u₀ + M⁻¹Jᵀp, and the bodies fly freely to x⁽ˡ⁺¹⁾ =
// (c + hv, exp(hω)R). Perturbing ω by δ turns the body by exp(h(ω + δ)) ≈ exp(h J_l(hω) δ) exp(hω), J_l the
// left Jacobian of SO(3), J_l(φ) = 1 + (1 − cos θ)/θ² [φ]ₓ + (θ − sin θ)/θ³ [φ]ₓ² (θ = ‖φ‖); the joint
// rows' derivatives (rigid_jacobian.hpp) are against such world-frame turns. So
//   ∂c⁽ˡ⁺¹⁾/∂p = h Ĵ M⁻¹ J(x⁽ˡ⁾)ᵀ,   Ĵ = J(x⁽ˡ⁺¹⁾) · diag(1₃, J_l(hω_b)) per body,
// which equals hA when nothing turns within the step. With a heavy body hanging from light links (a
// chain with a 1000× end mass) the links' turn within the step under the large tension impulses makes
// Ĵ ≠ J far sooner than hω is large: modified Newton then creeps or diverges, Newton on this matrix
// converges. It is not symmetric: a sparse LU (Eigen's SparseLU, COLAMD ordering) on the pattern of A.
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <vector>

#include "affix/solvers/impulse/articulation_system.hpp"

namespace affix {

/// J_l(φ), the left Jacobian of SO(3) (header).
Mat3 so3_left_jacobian(const Vec3& phi);

class ExactNewton {
 public:
  /// Ĵ M⁻¹ Jᵀ from each block's Ĵ (J_hat1/2) and J (J1/2) on its bodies, W per body; rows with free[row]
  /// true are decoupled (unit diagonal). Returns false when the LU fails (a singular matrix).
  bool factorize(const std::vector<SystemJoint>& joints, int size, const std::vector<JointJacobian>& J_hat1,
                 const std::vector<JointJacobian>& J_hat2, const std::vector<JointJacobian>& J1,
                 const std::vector<JointJacobian>& J2, const std::vector<Mat6>& W, const std::vector<char>& free);
  void solve(const VecX& b, VecX& x) { x = lu_.solve(b); }

 private:
  std::vector<Eigen::Triplet<double>> entries_;
  Eigen::SparseMatrix<double> matrix_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
};

}  // namespace affix
