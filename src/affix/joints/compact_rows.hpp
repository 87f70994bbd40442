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
//   slider            e_y·d₀, e_z·d₀ (`direction`: on body 2's line) or e_x·d₀ (`normal`: on its plane)
//                                                         (2 or 1: the point-on-line and point-on-plane
//                                                          parts of Eq. 25; rotations stay free)
//   distance          ‖d₀‖ − L                            (1, or 0 for a rope/strut with only min/max)
// The paper has no slider or distance joint; both are built by its route (rows in the KKT, not
// penalties). The distance row is nonlinear even with E held; written as n̂·d₀ − L with n̂ = d₀/‖d₀‖ held,
// its gradient n̂ᵀ(J(P₀¹), −J(P₀²)) is still exact, since ∂n̂ is ⟂ d₀. L is `length`, else the anchors'
// distance at t = 0, clamped into [min, max] (with an equality row those limits add no row).
// Where the paper is silent: which body's frame E follows (body 2, whose frame the joint's motion is
// measured in; the paper allows either, §5.1 "R = R_i R_h or R_j R_h"); the ball part of hinge,
// universal and fixed in world rather than local components (the same zero set, and linear, as
// Eq. 19); which coordinate of P₂ the prismatic fixes (e_z, P₂ being on ȳ); ℓ. As in the paper, the
// distances between a body's own control points are kept by its material stiffness, not by rows.
//
// Limits (§4.6: "clamp [an out-of-range joint DOF] to its nearest valid setup"). joint_dof() reads a
// limited DOF from the control points, and an active limit (LimitClamp) adds one row that holds the DOF
// at its bound, in the same E frame (c a fixed vector in E's coordinates, w an edge or gap):
//   hinge_angle  θ = atan2(e_z·w, e_y·w), w = x₂¹ − x₀¹ (body 1's ȳ edge); row (E c)·w, c = (0, −sin β, cos β)
//   slide        e_x·d₀ (prismatic, slider with `direction`); row e_x·d₀ − β
//   distance     ‖d₀‖; row ‖d₀‖ − β (the equality row's form)
//   cone_twist   with a = Eᵀ(x₁¹ − x₀¹), b = Eᵀ(x₂¹ − x₀¹) and Eᵀ·R·E = R_z(swing2)·R_y(swing1)·R_x(twist):
//     swing2 = atan2(a_y, a_x);          row a·(−sin β, cos β, 0)
//     swing1 = atan2(−a_z, ‖a_xy‖);       row −a·(sin β cos s₂, sin β sin s₂, cos β), s₂ measured
//     twist  = atan2(b′_z, b′_y), b′ = Sᵀb, S = R_z(s₂)R_y(s₁); row b′·(0, −sin τ, cos τ)
// Each row is ℓ sin(DOF − β) up to a positive factor for a rigid pose: zero at the bound, any 2π
// multiple of β gives the same row (the caller unwraps angles). Their Jacobians are exact: for swing1,
// ∂c/∂s₂·a = 0 identically; for twist, S's motion adds ω·(v × b′) with ω = (−sin s₁ ds₂, ds₁, cos s₁ ds₂)
// (S = R_z R_y ⇒ SᵀdS = [R_yᵀe_z ds₂ + e_y ds₁]×), and ds₁, ds₂ are rows on a. Singular only where the
// angles are (swing1 = ±90°).
//
// Derivatives (Eq. 30–34). With E held fixed every row is linear in q: C = G₁ q₁ + G₂ q₂ − b, with
// G_b = ±(row of Eᵀ or I)·J(P_k^b) (Eq. 31) and b the world's points (0 between two bodies). E moves with
// q₂, which adds ∂C/∂q₂ through the frame (Eq. 32–33): for a row (E c)·w, ∂/∂A₂(i, j) = w_i (F̄₂ c)_j.
// That is exact for C as defined, E being linear in q₂ (Eq. 34). For the nonlinear rows (distance,
// swing1, twist) b is whatever makes C = G₁ q₁ + G₂ q₂ − b at the given q: G is the exact tangent.
//
// The paper's skew-symmetrisation (Eq. 35) instead differentiates a rotation R ≈ A₂: it keeps only the
// part of ∂C/∂A₂ that a rotation can follow, M ↦ skew(M A₂ᵀ)·A₂ (skew(X) = (X − Xᵀ)/2), i.e. the gradient
// on the tangent space {[ω]× A₂} of rigid motions. skew_symmetrised_frame_rows() returns it; it equals
// frame_rows2 along rigid motions of body 2 at a rigid pose (to O(‖A₂ᵀA₂ − I‖) near one), not along
// stretches. The simulator uses the exact frame_rows2.
#include <span>

#include "affix/math/types.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// Up to 6 rows of 12 affine DOFs: fixed-capacity Eigen types, so no row allocates.
using CompactVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;
using CompactBlock = Eigen::Matrix<double, Eigen::Dynamic, 12, Eigen::RowMajor, 6, 12>;

/// Whether a joint type has compact rows (every type does since slider and distance were added).
bool has_compact_rows(JointType type);

/// Number of equality rows of a joint (table in the header comment; a slider's depends on `normal`,
/// a distance joint's on whether it has a length).
int compact_row_count(const JointDef& def);

/// A joint coordinate that a limit bounds (He 2026 §4.6's "joint DOF").
enum class JointDof { hinge_angle, slide, distance, twist, swing1, swing2 };

/// An active limit: `dof` held at `bound` (rad or m) by one extra row (header comment).
struct LimitClamp {
  JointDof dof = JointDof::hinge_angle;
  double bound = 0.0;
};

/// The most limit rows a joint can add at once (one per limited DOF).
int max_limit_rows(const JointDef& def);

struct CompactRows {
  CompactBlock rows1;        ///< G₁ (m × 12): ∂C/∂q₁
  CompactBlock rows2;        ///< G₂ (m × 12) at body 2's current frame; 0 rows against the world
  CompactVector rhs;         ///< b: makes C = G₁ q₁ + G₂ q₂ − b at the given states
  CompactBlock frame_rows2;  ///< ∂C/∂q₂ through E (Eq. 32–34); 0 rows against the world
  CompactVector value;       ///< C

  /// ∂C/∂q₂ in full (Eq. 30): the rows with E held plus E's own motion.
  CompactBlock jacobian2() const { return rows2 + frame_rows2; }
};

/// The rows of `joint` at states q1 (body 1) and q2 (body 2; ignored against the world), with
/// control-tetrahedron edge `edge` (ℓ, m): its equality rows, then one row per clamp in order.
CompactRows compact_rows(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2,
                         std::span<const LimitClamp> clamps = {});

/// A ball's (or cone twist's) three rows, the world components of x₀¹ − x₀² (q2 ignored against the
/// world), without their gradients: the same numbers as compact_rows(...).value.
Vec3 ball_gap(const ModelJoint& joint, const Vec12& q1, const Vec12& q2);

/// max |C| over the joint's equality rows, as compact_rows(...).value gives it: a step's statistics read
/// it for every joint, and a ball's (or cone twist's) three rows are the world components of
/// x₀¹ − x₀², read here without the rows' gradients (the same numbers; other types go through
/// compact_rows). 0 for a joint without rows.
double compact_row_error(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2);

/// The value of `dof` at q1, q2 (header comment): angles in (−π, π], slide and distance in m.
double joint_dof(const ModelJoint& joint, double edge, const Vec12& q1, const Vec12& q2, JointDof dof);

/// The paper's skew-symmetrised frame rows (Eq. 35; header comment) in place of frame_rows2.
CompactBlock skew_symmetrised_frame_rows(const CompactRows& rows, const Vec12& q2);

}  // namespace affix
