#pragma once
// Linear joints in the Newton solve by change of variables (Chen 2022 §4.1).
//
// The linear joint rows C q = s are split by body: terms on fixed or kinematic bodies are known and
// move to the right-hand side, s(t) = s − C_D q_D(t); the rest are eliminated once by the basis
// extension (basis_extension.hpp), giving z = V q whose first m entries are the Dirichlet values s̃.
// A Newton step then solves, for Δz with Δz_c = s̃ − C̃q (non-zero only while a row is not yet exact:
// after a kinematic body's move, or round-off),
//   Δq = δ + N y,   (Nᵀ H N) y = −Nᵀ (g + H δ),
// with δ = U(Δz_c, 0) the pivot move that makes the rows exact and N the free columns of U: Chen's
// Uᵀ∇E and UᵀHU with the Dirichlet rows and columns removed. Every point of q + αΔq then satisfies
// the rows as soon as q does, so joints are exact up to round-off.
// That is the reference method (`reduction`); the same Δq is also found as the solution of the KKT
// system of the rows, densely or by the joint forest's linear-time solve (joint_step.hpp), chosen by
// settings.ipc.linear_solver.
#include <memory>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "affix/body/affine_body.hpp"
#include "affix/joints/basis_extension.hpp"
#include "affix/joints/joint_model.hpp"
#include "affix/solvers/ipc/joint_step.hpp"
#include "affix/solvers/linear/block_hessian.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"

namespace affix {

class JointSpace {
 public:
  /// `kind`: the linear solve of the step (joint_step.hpp); `automatic` picks `tree` when the rows form
  /// a forest without dependent rows, else `reduction`. A forced `tree` on rows that are not one is
  /// kept as asked but solved by `reduction` (see `structure()`; the ipc solver refuses such a scene).
  JointSpace(const std::vector<AffineBody>& bodies, const JointModel& model,
             JointSolverKind kind = JointSolverKind::automatic);

  /// No row touches a dynamic body: the Newton system is H itself.
  bool empty() const { return rows_.empty(); }
  /// Names of the joints with rows found linearly dependent on others (and dropped), each once.
  const std::vector<std::string>& redundant_joints() const { return redundant_joints_; }
  int redundant_rows() const { return static_cast<int>(basis_.dropped_rows().size()); }

  /// Sets s̃ from the fixed and kinematic bodies' states in q.
  void update_targets(const VecX& q);
  /// δ with C(q + δ) = s: zero except at the pivots (reduction, dense), or least-norm body by body from
  /// the roots (tree, tree_kkt.hpp). Either serves every method: the step is the same for any δ on the rows.
  VecX restoration(const VecX& q) const;
  /// Δq = δ + N y (header) by the chosen method (`solver` serves `reduction`). Returns false if the
  /// system is not positive definite on the rows' null space. A tree solve that fails (a pivot not
  /// positive definite, or its iteration not converged) is redone by `reduction` and counted.
  bool solve(const BlockHessian& H, const VecX& gradient, const VecX& delta, SparseCholesky& solver,
             VecX& dq) const;

  /// The method solve() uses: `reduction`, `dense` or `tree` (never `automatic`).
  JointSolverKind method() const { return method_; }
  /// Why the rows are not a forest the tree solve can take ("" when they are, or there are none).
  const std::string& structure() const { return structure_; }
  /// Tree solves redone by `reduction` so far, and the last tree solve's iteration.
  int fallbacks() const { return fallbacks_; }
  const TreeStep::Report* tree_report() const { return tree_ ? &tree_->report() : nullptr; }

 private:
  struct Row {
    std::vector<std::pair<int, double>> known;  // terms on fixed and kinematic bodies
    double rhs = 0.0;
  };
  bool solve_reduced(const BasisExtension& basis, const BlockHessian& H, const VecX& gradient,
                     const VecX& delta, SparseCholesky& solver, VecX& dq) const;
  /// e = C δ over the kept rows.
  VecX row_values(const VecX& delta) const;

  std::vector<Row> rows_;  // the rows with at least one dynamic term, in model order
  std::vector<SparseRow> kept_;  // their dynamic terms, without the rows the elimination dropped
  BasisExtension basis_;
  mutable Eigen::SparseMatrix<double> free_basis_transpose_;  // Nᵀ, column-major, on the first reduction
  VecX targets_;           // s̃ (reduction and dense)
  VecX row_targets_;       // s (tree)
  int dof_count_ = 0;
  mutable std::unique_ptr<BasisExtension> fallback_basis_;  // the tree method's, built on a failed solve
  std::vector<std::string> redundant_joints_;
  JointSolverKind method_ = JointSolverKind::reduction;
  std::string structure_;
  std::unique_ptr<TreeStep> tree_;  // the tree solve's factors and workspace, reused between steps
  mutable int fallbacks_ = 0;
};

/// H as a full (both triangles) sparse matrix.
Eigen::SparseMatrix<double> to_sparse(const BlockHessian& H);

}  // namespace affix
