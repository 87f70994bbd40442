#pragma once
// Joints as compact constraint rows on affine bodies (He 2026, M-ABD §4): as many rows as the joint
// takes DOFs from a rigid pair — ball 3, hinge 5, universal 4, prismatic 5 — instead of Chen 2022's
// affine point connections (a hinge there is two ball joints, 6 rows). These are the rows G of the
// dual-space KKT system (M-ABD Eq. 26–28), whose size is the number of rows.
//
// Control points (M-ABD §4.1). Each body carries control-tetrahedron points at its joint frame
// (model.hpp): P₀ = the frame origin, P₁ = P₀ + ℓ x̄, P₂ = P₀ + ℓ ȳ (x̄, ȳ the frame's rest axes, ℓ the
// CT edge, the caller's length scale; the paper leaves the CT free, its Fig. 4). Body b's point k lies
// at x_k^b = A_b P_k^b + p_b = J(P_k^b) q_b (Eq. 18; q = (p, rows of A), affine_body.hpp); the world's
// are constants. At t = 0 body 1's points coincide with body 2's.
//
// Local frame (Eq. 20, 22, 24). The paper reads the CP coordinates in a frame R = R_j R_h: R_h turns the
// joint axis onto a local axis, R_j is a body's current rotation, and R_j ≈ A_j for a stiff affine body
// makes R linear in q (Eq. 34). Here the frame is body 2's joint frame carried by A₂: E = A₂ F̄₂, columns
// e_x, e_y, e_z (F̄₂ = frame2.axes; against the world E = F̄₂, constant). Our frames already put the
// joint axis on x (model.hpp), so R_h is F̄₂ and the paper's local z axis is our x.
//
// Rows, with d_k = x_k¹ − x_k² the gap between the bodies' control points k:
//   ball, cone_twist  d₀                                  (3, Eq. 19: world components, linear)
//   hinge             d₀; e_y·d₁, e_z·d₁                  (5, Eq. 21: P₁ of body 1 on body 2's axis)
//   universal         d₀; e_y·(x₁¹ − x₀¹)                 (4, Eq. 23: body 1's a₁ edge has no a₂ part)
//   prismatic         e_y·d₀, e_z·d₀, e_y·d₁, e_z·d₁; e_z·d₂  (5, Eq. 25: both axis points on the line,
//                                                          then one coordinate of P₂ stops the twist)
//   fixed             d₀; e_y·d₁, e_z·d₁; e_z·d₂           (6: the paper gives none; the hinge's rows
//                                                          plus the prismatic's twist lock)
// Where the paper is silent: which body's frame E follows (body 2, whose frame the joint's motion is
// measured in; the paper allows either, §5.1 "R = R_i R_h or R_j R_h"); the ball part of hinge,
// universal and fixed in world rather than local components (the same zero set, and linear, as
// Eq. 19); which coordinate of P₂ the prismatic fixes (e_z, P₂ being on ȳ); ℓ. Distance and slider
// have no compact form in the paper and no rows here (has_compact_rows). As in the paper, the
// distances between a body's own control points are kept by its material stiffness, not by rows.
//
// Derivatives (Eq. 30–34). With E held fixed every row is linear in q: C = G₁ q₁ + G₂ q₂ − b, with
// G_b = ±(row of Eᵀ or I)·J(P_k^b) (Eq. 31) and b the world's points (0 between two bodies). E moves with
// q₂, which adds ∂C/∂q₂ through the frame (Eq. 32–33): for a row e_k·w, ∂/∂A₂(i, j) = w_i (F̄₂)_{jk}.
// That is exact for C as defined, E being linear in q₂ (Eq. 34); the paper's skew-symmetrisation
// (Eq. 35) instead differentiates a rotation, which differs from this by O(‖A₂ᵀA₂ − I‖).
#include "affix/math/types.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// Up to 6 rows of 12 affine DOFs: fixed-capacity Eigen types, so no row allocates.
using CompactVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;
using CompactBlock = Eigen::Matrix<double, Eigen::Dynamic, 12, Eigen::RowMajor, 6, 12>;

/// Whether the paper's compact form covers a joint type (not distance or slider).
bool has_compact_rows(JointType type);

/// Number of rows of a type with a compact form (table in the header comment).
int compact_row_count(JointType type);

struct CompactRows {
  CompactBlock rows1;        ///< G₁ (m × 12): ∂C/∂q₁
  CompactBlock rows2;        ///< G₂ (m × 12) at body 2's current frame; 0 rows against the world
  CompactVector rhs;         ///< b: constant for a given frame E; 0 between two bodies
  CompactBlock frame_rows2;  ///< ∂C/∂q₂ through E (Eq. 32–34); 0 rows against the world
  CompactVector value;       ///< C = G₁ q₁ + G₂ q₂ − b

  /// ∂C/∂q₂ in full (Eq. 30): the rows with E held plus E's own motion.
  CompactBlock jacobian2() const { return rows2 + frame_rows2; }
};

/// The rows of `joint` (a type with has_compact_rows) at states q1 (body 1) and q2 (body 2; ignored
/// against the world), with control-tetrahedron edge `edge` (ℓ, m).
CompactRows compact_rows(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2);

}  // namespace affix
