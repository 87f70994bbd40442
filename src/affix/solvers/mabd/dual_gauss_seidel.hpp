#pragma once
// The dual solve of a joint graph by bidirectional block Gauss–Seidel (He 2026 §5.5: "view the system as
// the combination of multiple joint chains, and we relax the strain in the dual space joint by joint,
// following those pre-defined chains"; §1 calls it a "bidirectional Gauss-Seidel optimizer"). The text
// gives no equations; this is the derivation the code follows.
//
// Block Gauss–Seidel on D λ = r (Eq. 28) relaxes one joint j at a time with the others held:
//   λ_j ← λ_j + D_jj⁻¹ (r − D λ)_j.
// Its residual is read through the primal instead of from D's off-diagonal blocks: keeping
// Δq = Δq_free − H⁻¹Gᵀλ (Eq. 27) up to date, (r − Dλ)_j = C_j + G_j Δq, the joint's row residual after
// the current step, and a change δ of λ_j moves its (at most two) bodies by −H⁻¹G_jᵀδ = −W δ, the
// responses the dual matrix holds (dual_matrix.hpp). A relaxation is then O(12 m_j) whatever the joint's
// neighbours, with D_jj (m_j × m_j) factorised once per solve.
// The order (the "pre-defined chains"): breadth first over the joints from the ones on the world (the
// supports), so that a sweep carries the supports' reaction outwards along every path; a forward sweep
// in that order is followed by a backward one, which carries the far ends' loads back to the supports
// (a symmetric Gauss–Seidel sweep: the iteration converges for any symmetric positive semi-definite D
// with r in its range, which the dual system always is).
// Stopping: after each forward–backward sweep, when ‖r − Dλ‖₂ ≤ tolerance·‖r‖₂ over the group's rows,
// or after `sweeps` sweeps (then `converged` is false and λ is the last iterate). λ starts from the
// previous step's where the caller has it (the joint graph unchanged), else from 0.
// Regularised (dual_direct.hpp): D + δI, the same relaxation with D_jj + δI and the residual − δλ_j.
#include <vector>

#include "affix/solvers/mabd/dual_matrix.hpp"

namespace affix {

/// The two `settings.mabd` limits of the Gauss–Seidel solve (README). The defaults live here.
struct GaussSeidelLimits {
  double tolerance = 1e-6;  ///< relative residual ‖r − Dλ‖/‖r‖ to stop at
  int sweeps = 500;         ///< most forward–backward sweeps
};

/// What one solve did (the worst over its groups when several).
struct GaussSeidelReport {
  int sweeps = 0;          ///< forward–backward sweeps done
  double residual = 0.0;   ///< the final ‖r − Dλ‖/‖r‖
  bool converged = true;
};

class DualGaussSeidel {
 public:
  /// Solves the group `joints` of dual.system() on D + shift·I, writing λ_j at offsets[j] of
  /// solution.lambda and Δq of the group's bodies into solution.dq (both sized). `warm`: the previous λ
  /// (whole system, same offsets), or null. Returns false when a D_jj + shift·I is not numerically
  /// positive definite (a joint with redundant rows of its own).
  bool solve(const DualMatrix& dual, const std::vector<int>& joints, const std::vector<int>& offsets,
             const std::vector<Vec12>& free_steps, double shift, const GaussSeidelLimits& limits,
             const VecX* warm, KktSolution& solution);
  const GaussSeidelReport& report() const { return report_; }

 private:
  std::vector<int> sweep_order(const DualMatrix& dual, const std::vector<int>& joints) const;

  GaussSeidelReport report_;
  std::vector<Eigen::LLT<DualBlock>> pivots_;
};

}  // namespace affix
