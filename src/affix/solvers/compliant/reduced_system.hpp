#pragma once
// The reduced (Schur complement) system of the compliant step, Andrews 2017 Eq. 3, in the impulses
// μ = hλ:
//   (S + J W Jᵀ) μ = b,   W = M̃⁻¹,
// S diagonal (C/h² for Eq. 3; Σ/h with constraint damping, Eq. 15–17). J is kept per joint as its
// rigid rows' blocks on its two moving bodies (a side held by the world, a fixed or a kinematic body has
// none). With a block-diagonal W (M̃ = M or M + hB) the matrix is sparse, with a block for each pair of
// joints that share a body: assembled into a dense matrix and factorised by LDLT up to `dense_rows`
// rows, else into a sparse lower triangle of fixed pattern factorised by CHOLMOD (its symbolic analysis
// made once). With a dense W (M̃ = M − h²K̃, Andrews §3) it is dense and factorised by LDLT.
#include <Eigen/Dense>
#include <array>
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"

namespace affix {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// Where a joint's rows sit: rows offset … offset + count − 1, and the moving body (index among the
/// unknowns, −1 for none) of each side.
struct JointSlot {
  int offset = 0, count = 0;
  std::array<int, 2> body{-1, -1};
};

/// The Jacobian of all rows: per joint its slot and its two 6-column blocks (J1 for side 0, J2 for side 1).
struct ConstraintJacobian {
  std::vector<JointSlot> slots;
  std::vector<std::array<RigidBlock, 2>> blocks;
  int rows = 0;
  int bodies = 0;

  /// y += J x (x: 6 per body).
  void multiply_add(const VecX& x, VecX& y) const;
  /// x += Jᵀ μ.
  void transpose_multiply_add(const VecX& mu, VecX& x) const;
};

class ReducedSystem {
 public:
  /// The structure: which joints share bodies (the couplings) and, above dense_rows rows, the sparse
  /// pattern. Call again when the slots change.
  void set_structure(const ConstraintJacobian& J, int dense_rows);

  /// Factorises S + J W Jᵀ for block-diagonal W (one 6 × 6 block per body). False if not positive definite.
  bool factorize(const ConstraintJacobian& J, const std::vector<Mat6>& W, const VecX& S);
  /// Factorises S + J W Jᵀ for a dense W (6 per body, all bodies). False if singular.
  bool factorize_dense(const ConstraintJacobian& J, const MatX& W, const VecX& S);
  VecX solve(const VecX& b);
  bool sparse() const { return sparse_; }
  int symbolic_analyses() const { return cholmod_.symbolic_analyses(); }

 private:
  /// Two joints' sides on one body: block (joint a, joint b) += J_a,side_a W_body J_b,side_bᵀ, a ≥ b by row.
  struct Coupling {
    int joint_a, side_a, joint_b, side_b, body;
    int index = 0;  // first entry of its value indices (sparse)
  };
  void add_block(const Coupling& c, const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>& block);

  std::vector<Coupling> couplings_;
  bool sparse_ = false;
  MatX dense_;
  Eigen::LDLT<MatX> ldlt_;
  Eigen::SparseMatrix<double> lower_;
  std::vector<int> value_index_;  // per coupling, row-major over its block: index in lower_'s values or −1
  std::vector<int> diagonal_index_;
  SparseCholesky cholmod_;
  MatX WJt_;  // dense path: W Jᵀ
};

}  // namespace affix
