#pragma once
// Four moving bodies' per-body work of a step side by side, as the four lanes of one vector.
//
// Why: a body's polar factor, co-rotated stress, twist stiffness Γ and twist gain K
// (corotated_body.hpp) are chains of dependent 3×3 products and divisions. One body at a time they are
// bound by latency, not by arithmetic (mabd-step3 measured AVX2 code no faster than SSE2, and the polar
// factors of two bodies interleaved 6 % cheaper); every body's work is the same sequence of operations,
// so here each operation is done for four independent bodies at once: the divisions' latency is paid once
// for four, and the products fill the vector units. The arithmetic is corotated_body.cpp's, term for term
// (the same formulas and the same stopping test of the polar iteration), so the results agree with the
// one-body functions to round-off (tests/solvers/test_mabd_body_lanes.cpp); the lanes that need what is
// not vectorised (the SVD fallback of a polar factor far from a rotation, the eigenvalue clamp of a Γ that
// is not positive semi-definite) take the one-body code for that part.
//
// Only the polar rotation (`settings.mabd.rotation` "polar", the default); `normalize` keeps the one-body
// functions. A group of fewer than four bodies pads its lanes with the identity (a rest state).
#include "affix/solvers/mabd/corotated_body.hpp"

namespace affix {

constexpr int kBodyLanes = 4;

/// What a lane reads of its body's material (Ψ = V (μ ε:ε + ½λ (tr ε)²), corotated_body.hpp).
struct LaneMaterial {
  double volume = 0.0;
  Lame lame;
};

/// rotation_of(A[k], polar) for the four lanes.
void polar_factors4(const Mat3 (&A)[kBodyLanes], Mat3 (&R)[kBodyLanes]);

/// elastic_gradient(q, R, …, polar) for the four lanes: its A part V R (2μ ε + λ tr(ε) I) with
/// ε = sym(RᵀA) − I (row r at entries 3 + 3r…), its p part 0.
void elastic_gradients4(const Mat3 (&A)[kBodyLanes], const Mat3 (&R)[kBodyLanes],
                        const LaneMaterial (&material)[kBodyLanes], Vec12 (&gradient)[kBodyLanes]);

/// elastic_state(A, R, …, polar) for the four lanes: Ψ and Γ, Γ clamped where it is not positive
/// semi-definite (by clamp_negative_eigenvalues, lane by lane).
void elastic_states4(const Mat3 (&A)[kBodyLanes], const Mat3 (&R)[kBodyLanes],
                     const LaneMaterial (&material)[kBodyLanes], ElasticState (&state)[kBodyLanes]);

/// K = (I + h²Γ W)⁻¹ h²Γ (CoRotation::set_twist) for the four lanes, h2_gamma and W each lane's.
void twist_gains4(const Mat3* const (&h2_gamma)[kBodyLanes], const Mat3* const (&W)[kBodyLanes],
                  Mat3 (&gain)[kBodyLanes]);

/// One ball block R (M − Y_a K Y_cᵀ) Rᵀ of ball_brackets.hpp (ball_block, for a body without a dense
/// factor): the body's rotation R and twist gain K (0 for an untwisted body), the two brackets' Y and
/// their middle M.
struct BallBlockLane {
  const Mat3 *R = nullptr, *K = nullptr, *Ya = nullptr, *Yc = nullptr, *middle = nullptr;
};
/// Four ball blocks (of any bodies) as lanes, each written to its `block`.
void ball_blocks4(const BallBlockLane (&lane)[kBodyLanes], Mat3* const (&block)[kBodyLanes]);

}  // namespace affix
