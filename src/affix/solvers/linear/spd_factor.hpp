#pragma once
// The LLT of a structured solver's small pivot (mabd/block_thomas.hpp, mabd/abd_aba.hpp, ipc/tree_kkt.hpp), with a test for
// numerical singularity. Eigen's LLT, like CHOLMOD, fails only at a pivot ≤ 0; a redundant row (two
// joints taking the same DOF) leaves a pivot that is round-off of either sign, and a tiny positive one
// would divide by it. A pivot below 10⁻¹³ of the block's largest diagonal entry counts as zero, so that
// the caller retries on D + δI (dual_direct.hpp), δ = 10⁻¹⁰ of D's largest diagonal entry.
#include <Eigen/Cholesky>

namespace affix {

constexpr double kSingularPivot = 1e-13;

/// Factorises the symmetric block A into `llt`; false when A is not numerically positive definite.
template <class Matrix>
bool factor_spd(Eigen::LLT<Matrix>& llt, const Matrix& A) {
  llt.compute(A);
  if (llt.info() != Eigen::Success) return false;
  if (A.rows() == 0) return true;
  const double smallest = llt.matrixLLT().diagonal().cwiseAbs2().minCoeff();
  return smallest > kSingularPivot * A.diagonal().maxCoeff();
}

}  // namespace affix
