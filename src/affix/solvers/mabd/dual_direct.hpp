#pragma once
// The reference dual solve for any joint graph (He 2026 Eq. 28): D assembled whole as a sparse matrix
// and factorised by CHOLMOD, its symbolic analysis kept while the joint graph is unchanged.
//
// Redundant rows (a closed loop of hinges has more rows than the loop removes DOFs) make D singular but
// leave r in its range: the rows agree. Then the factorisation is retried on D + δI with δ = 10⁻¹⁰ of
// D's largest diagonal entry, which picks the λ of least norm up to O(δ) and leaves Δq, which depends on
// Gᵀλ only, unchanged to that order (Tikhonov regularisation, as Tomcin 2014 §4.3 does for loops).
// Redundancy is a property of the joints, not of the step, so once D needed the shift every later
// solve of a D of the same size starts with it: a four-bar or a Peaucellier linkage pays one failed
// factorisation per run, not one per step (and CHOLMOD, told not to print warnings, leaves the report
// to regularised()).
#include "affix/solvers/linear/sparse_cholesky.hpp"
#include "affix/solvers/mabd/dual_matrix.hpp"

namespace affix {

class DualDirectSolver {
 public:
  /// Solves the system; throws SimulationError if D is not positive semi-definite even regularised.
  KktSolution solve(const KktSystem& system);
  /// Whether the last solve needed the regularisation (the rows were redundant).
  bool regularised() const { return regularised_; }

 private:
  SparseCholesky cholesky_;
  bool regularised_ = false;
  int regularised_size_ = -1;  // the rows of D when regularised_ was last set
};

}  // namespace affix
