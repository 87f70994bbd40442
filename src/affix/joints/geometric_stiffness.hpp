#pragma once
// Geometric stiffness of the rigid joint rows (Andrews 2017, Eq. 1 and Appendix A): how the constraint
// force Jᵀλ of one joint turns as its bodies move, with λ held,
//   K̃ = ∂(Jᵀλ)/∂x   (12 × 12 against [δc₁, δθ₁, δc₂, δθ₂], δθ the world rotation vector, R ← exp([δθ]ₓ)R),
// so that f(x + δx) ≈ Jᵀλ + K̃ δx. The rows and their parts are rigid_jacobian.hpp's (rigid_parts.hpp).
// With r = x − c the levers, a₁ = R₁ā (body 1), u₂ = R₂ū (body 2), d = x₁ − x₂, w = x₁ − c₂ = r₂ + d, and
// δr = δθ × r, δa = δθ × a (Andrews Eq. 19–20), the force of one row with multiplier λ and its K̃ blocks
// (rows ← columns; [v] the cross-product matrix, every other block 0):
//   point  F₁ = λe, τ₁ = λ r₁×e, F₂ = −F₁, τ₂ = −λ r₂×e     θ₁←θ₁  [λe][r₁]     θ₂←θ₂  −[λe][r₂]
//          (Andrews Eq. 22: the three rows of a ball joint sum to [Λ][r], Λ = Σ λ_k e_k)
//   dot-1  τ₁ = λ a₁×u₂ = −τ₂                             θ₁←θ₁  λ[u₂][a₁]    θ₁←θ₂  −λ[a₁][u₂]
//                                                          θ₂←θ₁  −λ[u₂][a₁]   θ₂←θ₂  λ[a₁][u₂]   (Eq. 25)
//   dot-2  F₁ = λu₂ = −F₂, τ₁ = λ r₁×u₂, τ₂ = λ u₂×w        c₁←θ₂  −λ[u₂]       c₂←θ₂  λ[u₂]
//                                                          θ₁←θ₁  λ[u₂][r₁]    θ₁←θ₂  −λ[r₁][u₂]
//                                                          θ₂←c₁  λ[u₂]        θ₂←c₂  −λ[u₂]
//                                                          θ₂←θ₁  −λ[u₂][r₁]   θ₂←θ₂  λ[w][u₂]   (Eq. 27)
//   length F₁ = λn = −F₂, n = d/‖d‖, τ₁ = λ r₁×n, τ₂ = −λ r₂×n; δn = P G δx/‖d‖, P = I − nnᵀ,
//          G = [I, −[r₁], −I, [r₂]]:  c₁,c₂ ← λ(±P G)/‖d‖, θ₁ ← λ([n][r₁]δθ₁ + [r₁]P G/‖d‖),
//          θ₂ ← −λ([n][r₂]δθ₂ + [r₂]P G/‖d‖)
// Andrews' dot-2 sits on body i (his Eq. 26); ours on body 2 (rigid_jacobian.hpp), which moves the
// d-term from θ₁ to θ₂ (w), hence the blocks differ from Eq. 27 by that relabelling. Against the world
// only the body-1 blocks remain. K̃ is not symmetric in general; the solver uses its symmetric part (the
// approximation Tournier 2015 suggests, Andrews §1.2) where it needs a symmetric matrix.
//
// Low rank (Andrews §3, Appendix B): K̃ = Σ a_k b_kᵀ with few terms, for Sherman–Morrison updates of
// M⁻¹. Point: [Λ][r] has r in its null space, so with {r̂, t, q} orthonormal it is (X t)tᵀ + (X q)qᵀ,
// X = [Λ][r] (rank 2, Andrews Eq. 5). Dot-1: [u][a] = a uᵀ − (a·u)I gives K̃ = λ(ā′ū₁ᵀ − ū′ā₂ᵀ) −
// λ(a·u) Σ_k ē_k ē_kᵀ with ā′ = (0, a, 0, −a), ū′ = (0, u, 0, −u), ū₁ = (0, u, 0, 0), ā₂ = (0, 0, 0, a),
// ē_k = (0, e_k, 0, −e_k): Appendix B's rank 2, plus the rank-3 term of the residual a·u = C that the
// paper drops at C = 0 (kept here, so the terms sum to K̃ exactly). Dot-2 and length: one term per
// non-zero column, (K̃ e_j, e_j) (Andrews' dot-2 decomposition has 10 terms; this has at most 12).
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"

namespace affix {

/// K̃ of one joint at the poses for the multipliers λ (one per row, N or N·m). Against the world the
/// body-2 rows and columns are zero.
Mat12 geometric_stiffness(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2,
                          const RigidVector& lambda);

/// One rank-1 term a bᵀ of K̃ over the joint's 12 DOFs [c₁, θ₁, c₂, θ₂].
struct RankOneTerm {
  Vec12 a = Vec12::Zero(), b = Vec12::Zero();
};

/// Appends K̃'s low-rank terms (header comment) to `out`: Σ a bᵀ = geometric_stiffness(...).
void geometric_stiffness_terms(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2,
                               const RigidVector& lambda, std::vector<RankOneTerm>& out);

}  // namespace affix
