#pragma once
// The scene's joints as constraint forms on affine bodies (Chen 2022 §4):
//   - linear equality rows on the affine DOFs (§4.1: point connections Eq. 6–8, sliding Eq. 9, and
//     the rotation lock of a prismatic joint), later eliminated by change of variables;
//   - stiff penalties ½k c² for the nonlinear equalities (§4.2: distance Eq. 11, relative sliding
//     Eq. 12 and its plane analogue);
//   - bounded distances for every limit (§4.3: Eq. 15–18), kept by barriers;
//   - the virtual links that universal (one) and cone-twist (two) joints are chained through (§4.1.3).
//
// How each DESIGN §3 joint type is built (ℓ = the joint's length scale, body1's bounding radius):
//   ball       one point connection at the anchor (3 rows)
//   hinge      point connections at the anchor and at anchor + ℓ·axis (6 rows, Eq. 8); its range
//              by Eq. 18 on a probe point at distance ℓ from the axis
//   fixed      point connections at the anchor and anchor + ℓ·eₓ, ℓ·e_y, ℓ·e_z (12 rows: body1's
//              affine map is body2's composed with a constant one)
//   universal  body2 ─hinge(a2)─ link ─hinge(a1)─ body1
//   cone_twist body2 ─hinge(z)─ link I ─hinge(y)─ link II ─hinge(x)─ body1: the relative rotation is
//              R_z(swing2)·R_y(swing1)·R_x(twist), each angle a dihedral angle with its own range
//              (Chen's three links I, II, III; his link III is body1 itself here)
//   prismatic  A₁ = A₂·A₂⁰⁻¹A₁⁰ (9 rows: no relative rotation or deformation), the anchor on body2's
//              line: 2 plane rows against the world (Eq. 9), a line penalty against a body (Eq. 12);
//              range by Eq. 17
//   slider     against the world: 1 plane row (normal) or 2 (direction), Eq. 9; against a body the
//              plane or line penalty; range along a direction by Eq. 17
//   distance   penalty Eq. 11 on the length (unless only `min`/`max` are given), limits Eq. 15–16
// A hinge range a turn wide or more (`limits_deg` [−270, 270], a URDF's ±360°; also a cone-twist angle's)
// cannot be one chord (Eq. 18 encodes an arc narrower than a turn): it is a TurnLimit, one JointLimit
// re-aimed before every step (aim_turn_limits) at the bound the hinge's continuous angle θ (atan2 about
// the parent's axis, continued by the turn nearest its last value, joints/joint_turns.hpp's rule) is
// within half a turn of: the chord of the arc [max − 3π/2, max] (or [min, min + 3π/2]), which holds θ
// at least π/2 inside its far end, and none while both bounds are more than half a turn away. It is
// switched only while the chord's barrier is 0 (θ half a turn from the bound: c ≈ 1.08ℓ ≫ ĉ), so the
// switch adds no energy. A step must turn the hinge by less than half a turn.
// A limit that the initial configuration already touches (c < ĉ, as for a straight elbow whose range
// ends at 0°) is widened so that c = ĉ at the start: the barrier needs c > 0, and this way the joint
// starts resting on its stop without an initial push. It then may pass the nominal bound by at most
// ĉ as a distance; a rotation range is opened at the touched end only, by about ĉ/(ℓ cos(α/2)) rad
// (α half the range).
#include <string>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/energy/joint_limit_barrier.hpp"
#include "affix/energy/joint_penalty.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// A point of a body (its rest-frame coordinates) or of the world (body −1: world coordinates).
struct BodyPoint {
  int body = -1;
  Vec3 x_bar = Vec3::Zero();
};

/// One linear equality row Σ coefficient·q[dof] = rhs over the stacked affine DOFs
/// (dof = layout.offset(body) + k, the layout given to build_joint_model).
/// World points are constants and sit in rhs.
struct JointRow {
  std::vector<std::pair<int, double>> terms;
  double rhs = 0.0;
  double error_scale = 0.0;  ///< |residual|·error_scale is a length; 0: the row's error is a PointGap's
  int joint = -1;
};

/// Two points that a linear joint keeps together: their distance is the joint's error.
struct PointGap {
  BodyPoint a, b;
  int joint = -1;
};

struct JointPenalty {
  PenaltyKind kind = PenaltyKind::distance;
  std::array<BodyPoint, 4> points;  ///< the stencil's points x₀ … (joint_penalty.hpp)
  double length = 0.0;              ///< l (distance) or L (line, plane)
  double stiffness = 0.0;           ///< k (N/m)
  int joint = -1;
};

struct JointLimit {
  BodyPoint a, b;                   ///< c = bound − ‖x_a − x_b‖ (upper) or ‖x_a − x_b‖ − bound (lower)
  double bound = 0.0;               ///< after widening (header comment)
  BoundSide side = BoundSide::upper;
  double damping = 0.0;             ///< Rayleigh k_d (s)
  int joint = -1;
};

/// A hinge range a turn wide or more, held by re-aiming one chord limit (header comment).
struct TurnLimit {
  int limit = -1;                   ///< its JointLimit in JointModel::limits (a = probe, b re-aimed)
  int parent = -1;                  ///< the body the range is measured against (−1: the world)
  BodyPoint probe;                  ///< the child's point at anchor + ℓu
  BodyPoint centre, axis_point;     ///< the parent's anchor and anchor + ℓ·axis
  BodyPoint zero;                   ///< the parent's point at anchor + ℓu: where the probe is at θ = 0
  Vec3 anchor = Vec3::Zero(), axis = Vec3::UnitZ(), u = Vec3::UnitX();  ///< world, t = 0
  double length = 1.0;              ///< ℓ
  double min = 0.0, max = 0.0;      ///< the range (rad), each end opened where the start touches it
  double theta = 0.0;               ///< the continuous angle at the last aim
};

struct JointModel {
  std::vector<std::string> names;  ///< per scene joint
  std::vector<JointRow> rows;
  std::vector<PointGap> gaps;
  std::vector<JointPenalty> penalties;
  std::vector<JointLimit> limits;
  std::vector<TurnLimit> turn_limits;  ///< multi-turn ranges: their JointLimits re-aimed every step
  std::vector<std::array<int, 2>> body_pairs;  ///< bodies (links included) a joint couples, i < j
  int virtual_links = 0;
};

/// Default penalty stiffness: k = 10⁷ s⁻² × the reduced mass of the two bodies (body1's mass
/// against the world or a fixed body), so a load of one body weight stretches a penalty joint by
/// about g/10⁷ ≈ 1 µm.
inline constexpr double kPenaltyStiffnessPerMass = 1e7;

/// Emits the model's joints as affine constraint forms for `bodies` (the model's bodies in order).
/// Appends the virtual links as extra bodies (no geometry, no contact) to `bodies` and, as affine
/// bodies, to `layout`, the stacked layout of `bodies` that the rows' DOF indices address. `chat` is the
/// limits' barrier clamping distance ĉ (m).
JointModel build_joint_model(const Model& model, std::vector<AffineBody>& bodies, DofLayout& layout,
                             double chat);

/// Re-aims each TurnLimit's chord at the bound its hinge's continuous angle at q is nearest (header);
/// `bodies` the affine bodies the model was built for (their t = 0 states place the parent's points).
void aim_turn_limits(JointModel& model, const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q);

/// World position of a body point in the stacked state q laid out by `layout`.
Vec3 body_point_position(const DofLayout& layout, const VecX& q, const BodyPoint& point);

/// The largest joint error at q (m): gaps of point connections, residuals of the other linear rows
/// (scaled to lengths), |c| of penalties, and how far any limit function is below 0.
double max_joint_error(const JointModel& model, const DofLayout& layout, const VecX& q);

}  // namespace affix
