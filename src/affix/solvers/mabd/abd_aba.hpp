#pragma once
// ABD-ABA (He 2026 §5.3, Alg. 2, Eq. 52–57): the KKT system of a joint tree solved in the primal, body
// by body, like Featherstone's articulated-body algorithm. The text lost the equations and the
// algorithm; this is the derivation the code follows.
//
// The step minimises Σ_b ½Δq_bᵀH_bΔq_b + g_bᵀΔq_b subject to every joint's rows G Δq = −C (Eq. 26).
// Root the tree (joint_graph.hpp). Body b, with parent p, is eliminated with the rows that involve it
// and no body below it: its parent joint and its unary joints, stacked as
//   G_c Δq_b + G_p Δq_p = −C        (G_p = 0 on the unary rows; at the root there is no p)   (Eq. 55–56)
// Upward pass (leaves to root; Eq. 52–54). Each body keeps an articulated pair (H^A_b, g^A_b), starting
// at (H_b, g_b): the quadratic model of its subtree in Δq_b once the subtree below is eliminated. With
//   S = G_c (H^A_b)⁻¹ G_cᵀ,   w = C − G_c (H^A_b)⁻¹ g^A_b,
// the local KKT  H^A_b Δq_b + G_cᵀλ = −g^A_b,  G_c Δq_b = −C − G_p Δq_p  (Eq. 57) gives
//   λ = S⁻¹ (w + G_p Δq_p),   Δq_b = −(H^A_b)⁻¹ (g^A_b + G_cᵀλ),
// and the subtree's minimum as a function of the parent's step is ½(w + G_pΔq_p)ᵀ S⁻¹ (w + G_pΔq_p) +
// const: the parent accumulates
//   H^A_p += G_pᵀ S⁻¹ G_p,   g^A_p += G_pᵀ S⁻¹ w.
// (The paper writes this with a joint subspace and rotates it into the parent's frame, Eq. 50–54; in
// affine coordinates G_p already acts on the parent's q, so no transform is needed.)
// Downward pass (root to leaves): the root solves its local KKT with its unary rows (Δq_p = 0 terms
// absent), then each body, its parent's Δq_p known, takes λ and Δq_b from the two formulas above.
// λ of the stacked rows is the joints' own multipliers, written back in the KKT's joint order.
//
// Regularised (dual_direct.hpp): S + shift·I solves the KKT with −shift·I in its lower-right block,
// which is the dual system D + shift·I exactly.
//
// Storage per body: the factors the downward pass needs, a = −(H^A)⁻¹g^A, Y = (H^A)⁻¹G_cᵀ (12×m),
// u = S⁻¹w, K = S⁻¹G_p (m×12), in one pool sized once; the local matrices are fixed-capacity (m ≤ 12).
#include <vector>

#include "affix/solvers/mabd/joint_graph.hpp"

namespace affix {

class AbdAba {
 public:
  /// Solves the tree `component` of `system` (classified by `graph`: is_tree), writing Δq of its bodies
  /// and λ of its joints (at offsets[j] of solution.lambda; both already sized). Returns false, leaving
  /// the solution partly written, when a local matrix is not numerically positive definite.
  bool solve(const KktSystem& system, const JointGraph& graph, const JointComponent& component,
             const std::vector<int>& offsets, double shift, KktSolution& solution);

 private:
  std::vector<Mat12> H_;     // H^A per body of the system
  std::vector<Vec12> g_;     // g^A, then a
  std::vector<int> rows_;    // m per body
  std::vector<std::size_t> at_;  // the body's place in pool_
  std::vector<double> pool_;     // Y, K, u per body
};

}  // namespace affix
