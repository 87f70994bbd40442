#pragma once
// The system matrix of Tomcin 2014 §3, A = J M⁻¹ Jᵀ, regularised as A_α = A + αI with α = ε_T‖A‖₁ (§4,
// ‖A‖₁ the largest column sum of |A|), and its sparse LDLᵀ factorisation through CHOLMOD (§5, §6).
//
// Rows come in blocks, one block per joint (its equality rows, then one row per limited coordinate).
// The pattern of A is fixed by the kinematic graph alone: blocks j and k couple when the two joints
// share a moving body, and a joint's limit rows are always in its block (an inactive one has a zero
// Jacobian row and a unit diagonal, so its impulse is 0). So the fill-reducing ordering and symbolic
// analysis (CHOLMOD's AMD) are computed once and every step pays for a numeric factorisation only.
// Assembly writes straight into the stored values: block (j, k) through body b adds J_jb W_b J_kbᵀ,
// W_b = diag(1/m 1₃, I⁻¹) (0 for prescribed bodies), with no allocation.
#include <Eigen/CholmodSupport>
#include <Eigen/SparseCore>
#include <memory>
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/math/types.hpp"

namespace affix {

using Mat6 = Eigen::Matrix<double, 6, 6>;
/// A joint block's Jacobian on one of its bodies: up to 6 equality rows and 3 limit rows.
using JointJacobian = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::ColMajor, 9, 6>;

/// One joint block of the system: its two bodies (−1: none that moves) and its rows.
struct SystemJoint {
  int body1 = -1, body2 = -1;  ///< indices into the body list, −1 for the world or a prescribed body
  int rows = 0;
  int offset = 0;              ///< first row in the system (set by ArticulationSystem)
};

class ArticulationSystem {
 public:
  ArticulationSystem() = default;
  /// The pattern of A for these joint blocks over `body_count` bodies, analysed once.
  ArticulationSystem(std::vector<SystemJoint> joints, int body_count);

  int size() const { return size_; }
  const std::vector<SystemJoint>& joints() const { return joints_; }

  /// A_α from each block's Jacobians (J1[j], J2[j]: rows × 6 on its body1 and body2) and each body's
  /// W_b. Rows with free[row] true are decoupled (unit diagonal). Returns false when A_α is not
  /// numerically positive definite.
  bool factorize(const std::vector<JointJacobian>& J1, const std::vector<JointJacobian>& J2,
                 const std::vector<Mat6>& W, const std::vector<char>& free, double tikhonov);
  /// x = A_α⁻¹ b with the last factorisation.
  void solve(const VecX& b, VecX& x);
  double alpha() const { return alpha_; }
  int symbolic_analyses() const { return symbolic_analyses_; }
  /// A_α as assembled (lower triangle stored), for tests against a dense reference.
  Eigen::SparseMatrix<double> matrix() const { return matrix_; }

 private:
  /// One body's contribution to block (row joint j, column joint k), j ≥ k.
  struct Coupling {
    int j, side_j, k, side_k, body;
    int block;  ///< index into starts_
  };

  std::vector<SystemJoint> joints_;
  int size_ = 0;
  std::vector<Coupling> couplings_;
  std::vector<std::vector<int>> starts_;  ///< per block: the value index of its first row in each column
  std::vector<int> diagonal_;             ///< value index of each diagonal entry
  Eigen::SparseMatrix<double> matrix_;    ///< lower triangle, column-major
  std::vector<double> column_sums_;
  std::unique_ptr<Eigen::CholmodSimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower>> ldlt_;
  bool analysed_ = false;
  int symbolic_analyses_ = 0;
  double alpha_ = 0.0;
};

}  // namespace affix
