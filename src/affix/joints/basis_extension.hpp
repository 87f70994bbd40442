#pragma once
// Linear equality joints by change of variables (Chen 2022 §4.1).
//
// The m linear rows C x = s on the n affine DOFs are reduced by Gaussian elimination with pivoting:
// each row, after the earlier pivots are eliminated from it, takes as its pivot its entry of largest
// magnitude among the DOFs not yet pivots. Ordering the DOFs as (pivots in elimination order, free
// DOFs) makes the eliminated rows C̃ upper triangular with a non-zero diagonal, and
//   V = [ C̃ ; Ĩ ],   Ĩ = the identity on the free DOFs,
// is upper triangular and invertible (the paper's basis extension). With z = V x the constraints are
// the Dirichlet values z_c = s̃ (s̃ = s carried through the same row operations) and the free DOFs are
// z_f = x_f, so x = U z, U = V⁻¹, applied by back substitution. A row that elimination reduces to
// (numerically) zero is linearly dependent on the earlier ones: it is dropped and reported.
//
// V stays sparse: a row only fills in with the rows that share its DOFs, i.e. along its joints.
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

#include "affix/math/types.hpp"

namespace affix {

/// One row of C: (DOF index, coefficient) pairs, indices distinct.
struct SparseRow {
  std::vector<std::pair<int, double>> terms;
};

class BasisExtension {
 public:
  /// No constraints: V = U = I.
  explicit BasisExtension(int dof_count = 0);
  /// Eliminates `rows` (over `dof_count` DOFs) in order. A row whose largest entry after elimination
  /// is at most relative_tolerance × its largest original entry is dropped as dependent.
  BasisExtension(int dof_count, const std::vector<SparseRow>& rows, double relative_tolerance = 1e-9);

  int dof_count() const { return dof_count_; }
  /// m: the independent rows kept.
  int constraint_count() const { return static_cast<int>(pivots_.size()); }
  /// Indices into `rows` of the rows found dependent on earlier ones, ascending.
  const std::vector<int>& dropped_rows() const { return dropped_; }
  /// The pivot DOF of each kept row, in elimination order.
  const std::vector<int>& pivot_dofs() const { return pivots_; }
  /// The DOFs that are not pivots, ascending.
  const std::vector<int>& free_dofs() const { return free_; }

  /// s̃ = L s: the right-hand sides of the original rows (one per row given to the constructor, dropped
  /// ones included) through the elimination's row operations, one per kept row.
  VecX eliminated_rhs(const VecX& s) const;
  /// z = V x: the m eliminated constraint values C̃ x, then x at the free DOFs in ascending order.
  VecX to_reduced(const VecX& x) const;
  /// x = U z by back substitution (the inverse of to_reduced).
  VecX to_full(const VecX& z) const;
  /// δ, zero except at the pivots, with C̃ (x + δ) = s̃: the move that makes every kept row exact
  /// (z_c = s̃) without changing a free DOF.
  VecX restoration(const VecX& x, const VecX& s_tilde) const;
  /// N: the free columns of U (n × (n − m), column k belongs to free_dofs()[k]). x + N y satisfies the
  /// kept rows for every y whenever x does; the Newton step is searched in this space.
  /// Built on the first call: on a chain it fills in (a free DOF of one link moves every link below it,
  /// O(links²) entries), so a user of the KKT forms (ipc/joint_step.hpp) never pays for it.
  const Eigen::SparseMatrix<double>& free_basis() const;
  /// V as an n × n sparse matrix (row k < m: eliminated row k; row m + k: free DOF k).
  Eigen::SparseMatrix<double> matrix() const;

 private:
  void build_free_basis() const;
  /// Sets x at the pivots so that C̃ x = b, reading x at the free DOFs.
  void back_substitute(const VecX& b, VecX& x) const;

  int dof_count_ = 0;
  int row_count_ = 0;                               // rows given, dropped ones included
  std::vector<SparseRow> eliminated_;               // C̃, one per kept row
  std::vector<std::vector<std::pair<int, double>>> combination_;  // L: kept row k = Σ c·(original row)
  std::vector<int> pivots_, free_, dropped_;
  std::vector<int> pivot_row_;                      // DOF → kept row whose pivot it is, −1 if free
  std::vector<double> pivot_value_;                 // C̃_k at its pivot, one per kept row
  mutable Eigen::SparseMatrix<double> free_basis_;  // N, built by free_basis() on first use
  mutable bool free_basis_built_ = false;
};

}  // namespace affix
