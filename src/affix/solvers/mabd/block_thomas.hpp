#pragma once
// The dual solve of a joint chain by the block Thomas algorithm (He 2026 §5.2, Eq. 36–41; Press 2007
// §2.4). The text lost the equations; in this code's terms:
//   Eq. 36–39. Ordered along the chain, joint j shares a body only with joints j − 1 and j + 1, so
//     D λ = r is block tridiagonal: diagonal blocks A_j = D_jj, off-diagonal B_j = D_j,j+1 = D_j+1,jᵀ
//     (DualMatrix::block; m_j ≤ 6 rows each), r_j = C_j + G_j Δq_free (Eq. 28).
//   Eq. 40. Forward elimination, D being symmetric: P₀ = A₀, y₀ = r₀ and, with X_j = P_j⁻¹ B_j,
//     P_j+1 = A_j+1 − B_jᵀ X_j,   y_j+1 = r_j+1 − X_jᵀ y_j   (P_j is a Schur complement of an SPD D);
//     back substitution λ_n = P_n⁻¹ y_n, λ_j = P_j⁻¹ y_j − X_j λ_j+1.
//   Eq. 41. Each body then moves by Δq_b = Δq_free,b − Σ_j H_b⁻¹ G_jbᵀ λ_j over the (at most two)
//     joints that move it; H_b⁻¹ G_jbᵀ is the response W the dual matrix already holds (Eq. 27).
// One LLT of an m×m pivot per joint, fixed-capacity blocks: time and memory linear in the joints.
#include <vector>

#include "affix/solvers/mabd/dual_matrix.hpp"

namespace affix {

class BlockThomas {
 public:
  /// Solves the chain `joints` (in chain order: consecutive joints share a body) of dual.system() on
  /// D + shift·I (shift ≥ 0: the regularisation of dual_direct.hpp), writing λ_j at offsets[j] of
  /// solution.lambda and Δq of the chain's bodies into solution.dq (both already sized). Returns false,
  /// leaving the solution partly written, when a pivot is not numerically positive definite.
  bool solve(const DualMatrix& dual, const std::vector<int>& joints, const std::vector<int>& offsets,
             const std::vector<Vec12>& free_steps, double shift, KktSolution& solution);

 private:
  std::vector<DualBlock> X_;       // P_j⁻¹ B_j
  std::vector<CompactVector> z_;   // P_j⁻¹ y_j
};

}  // namespace affix
