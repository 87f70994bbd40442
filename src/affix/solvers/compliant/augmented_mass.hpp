#pragma once
// The augmented mass M̃ = M − h²K̃ of Andrews 2017 Eq. 2 and its inverse, which the reduced system
// (Eq. 3) needs whole: K̃ couples the two bodies of every joint, so M̃⁻¹ is dense. Two ways (§3):
//   full rank  M̃ assembled (block-diagonal M, each joint's K̃ on its bodies' blocks) and inverted by a
//              dense LDLT factorisation: O(N³) for N = 6 × bodies;
//   low rank   M⁻¹ (block-diagonal, inverted body by body) updated by one Sherman–Morrison step per
//              rank-1 term of K̃ (Eq. 6, Appendix B, geometric_stiffness.hpp), with M̃⁻¹u and vᵀM̃⁻¹ read
//              from the ≤ 12 columns and rows the sparse term touches, and only the 6 × 6 blocks that
//              can be non-zero read and written ("the matrix-vector products of Eq. 6 are computed
//              efficiently by exploiting the sparsity", §3.2): a block pattern of body pairs starts
//              block-diagonal and grows by the pairs each update couples. A ball joint's K̃ has only
//              diagonal blocks (Eq. 4), so a cable of ball joints stays block-diagonal and costs O(1) per
//              term, O(n) in all; a hinge or universal joint's dot-1 rows couple their two bodies
//              (Eq. 25), so the inverse fills in. The joints are applied smallest groups first
//              (augmented_mass.cpp, merge_order): down a cable the fill-in would cost Σ_k O(k²) =
//              O(n³), merged in balanced halves it costs O(n²), the size of the dense inverse. Such a
//              joint's terms are summed into one symmetric G on the DOFs they touch and applied as one
//              Woodbury update (the block Sherman–Morrison, rank ≤ 12) instead of 2 × 14 (hinge) rank-1
//              ones; a ball joint keeps its rank-1 updates, each inside one body's block.
// Both use the symmetric part of K̃ (Tournier 2015, Andrews §1.2), so M̃ and the reduced system are
// symmetric; a term a bᵀ enters as the two updates −½h² a bᵀ and −½h² b aᵀ.
#include <array>
#include <vector>

#include "affix/joints/geometric_stiffness.hpp"
#include "affix/solvers/compliant/reduced_system.hpp"

namespace affix {

/// One joint's K̃ on the unknowns: the moving body (index among the unknowns, −1: none) of each side.
struct PlacedStiffness {
  std::array<int, 2> body{-1, -1};
  Mat12 K = Mat12::Zero();
};

/// A rank-1 term of one joint's K̃, with its joint's bodies.
struct PlacedTerm {
  std::array<int, 2> body{-1, -1};
  RankOneTerm term;
};

/// (M − h² sym K̃)⁻¹ by assembly and a dense LDLT factorisation. M: one 6 × 6 block per body.
MatX augmented_inverse_full_rank(const std::vector<Mat6>& M, const std::vector<PlacedStiffness>& K, double h);

/// The same by Sherman–Morrison updates of M⁻¹ (Minv: one 6 × 6 block per body). `out` is resized and
/// overwritten (kept between steps so that its storage is reused).
void augmented_inverse_low_rank(const std::vector<Mat6>& Minv, const std::vector<PlacedTerm>& terms, double h,
                                MatX& out);

}  // namespace affix
