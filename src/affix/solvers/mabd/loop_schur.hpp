#pragma once
// The dual solve of a joint loop, or of a few loops on a joint tree (He 2026 §5.4, Eq. 58), by a Schur
// complement over the chain or tree solve. The text lost Eq. 58; this is the derivation the code follows.
//
// The paper removes a "loop breaker" body k with its two joints, leaving a chain solved by block Thomas
// (or, for loops on a tree, a tree solved by ABD-ABA), and solves the small Schur complement of the
// breaker's block of the KKT system (Eq. 26). We break the loop at a joint instead of a body, which is
// the same Schur complement idea on a smaller block: cutting the joints that close the cycles
// (joint_graph.hpp: one per cycle, chosen by union-find) leaves a spanning tree T, and ordering D's rows
// as (T, cut C) gives
//   [D_TT  D_TC] [λ_T]   [r_T]
//   [D_CT  D_CC] [λ_C] = [r_C]                                                              (Eq. 58)
// with D_TT the dual matrix of the chain or tree alone. With X = D_TT⁻¹ D_TC and y = D_TT⁻¹ r_T,
//   S λ_C = r_C − D_CT y,   S = D_CC − D_CT X   (the low-rank Schur complement: m_C × m_C),
//   λ_T = y − X λ_C.
// Every one of these is a chain or tree solve on changed forces, read through the primal (Eq. 27):
//   y: the tree solve of the system as it is, giving Δq⁰ = Δq_free − H⁻¹G_Tᵀy. Then
//      r_C − D_CT y = C_C + G_C Δq⁰: the cut rows' residual after the tree moved alone.
//   X e: the tree solve with gradient g = −G_Cᵀe (a unit force on one cut row) and C = 0, giving
//      λ_T = X e and Δq_e = H⁻¹G_Cᵀe − H⁻¹G_TᵀX e. Then S e = G_C Δq_e: how far the cut rows open when
//      the tree, held by its joints, is pulled by that force (the cut joints' effective compliance).
//   λ_T, Δq: the tree solve with the cut joints' forces applied, gradient g + G_Cᵀλ_C: its
//      Δq_free − H⁻¹G_Cᵀλ_C gives r_T − D_TC λ_C on its rows, so its λ is y − Xλ_C and its Δq the
//      whole system's Δq_free − H⁻¹(G_Tᵀλ_T + G_Cᵀλ_C) ("substituting back", §5.4).
// So m_C + 2 tree solves and one dense m_C × m_C Cholesky: linear in the bodies while the loops are few
// (m_C ≤ 6 rows per cut joint). Regularised (dual_direct.hpp), the tree solves run on D_TT + δI and S
// gains δI: the same identities then solve D + δI exactly.
//
// A redundant loop (a four-bar of hinges: its rows remove fewer DOFs than they count) leaves D_TT
// regular but S singular with a consistent right-hand side; its Cholesky then fails like a structured
// pivot (spd_factor.hpp) and the caller retries on D + δI.
#include <optional>
#include <vector>

#include "affix/solvers/mabd/abd_aba.hpp"
#include "affix/solvers/mabd/block_thomas.hpp"
#include "affix/solvers/mabd/joint_graph.hpp"

namespace affix {

class LoopSchur {
 public:
  /// Prepares the loop solve of `component` of `system` (cycles > 0, spanning_tree_fits): the spanning
  /// tree as a system of its own, with its own joint graph (a chain where it is one).
  LoopSchur(const KktSystem& system, const JointComponent& component);

  /// Solves the component on D + shift·I, writing Δq of its bodies and λ of its joints (at offsets[j] of
  /// solution.lambda; both already sized). Returns false, leaving the solution partly written, when a
  /// pivot of the tree solve or of S is not numerically positive definite.
  bool solve(const KktSystem& system, const std::vector<int>& offsets, double shift, KktSolution& solution);

  /// The rows of the Schur complement S (Σ rows of the cut joints).
  int schur_rows() const { return schur_rows_; }

 private:
  bool solve_tree(double shift, KktSolution& out);
  /// The part's gradients and residuals: cleared, for a unit force on a cut row.
  void clear_forces();

  std::vector<int> bodies_;       // the component's bodies, ascending: local index → system index
  std::vector<int> tree_joints_;  // local joint index → system index
  std::vector<int> cut_joints_;   // system indices
  std::vector<std::pair<int, int>> cut_sides_;  // each cut joint's local bodies
  int schur_rows_ = 0;
  KktSystem part_;                // the spanning tree, refreshed from the system each solve
  JointGraph part_graph_;
  std::vector<int> part_offsets_;
  std::optional<DualMatrix> dual_;  // the chain's responses at the current values (reads part_'s forces live)
  BlockThomas thomas_;
  AbdAba aba_;
  std::vector<Vec12> free_;
  KktSolution base_, column_;
};

}  // namespace affix
