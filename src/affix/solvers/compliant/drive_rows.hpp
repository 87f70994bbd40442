#pragma once
// Motors and implicit PD servos as rows of the compliant step (Andrews 2017 §5.1 drives its robot's
// DOFs by "implicit PD servos" and its tank by "a motorized prismatic joint"; the text gives no
// equations, so they are derived here from Eq. 2–3 and Eq. 14–17).
//
// A drive acts on one joint coordinate s (rigid_jacobian.hpp: a hinge's twist, a prismatic joint's or
// a line slider's slide d·x₂), ṡ = J_s u, with one multiplier λ (N·m or N) along J_sᵀ, μ = hλ.
//
//   servo  λ₊ = −k(s₊ − s*) − d ṡ₊ with s₊ = s + h ṡ₊: the constraint-space spring–damper of Eq. 14
//          with C = 1/k and B′ = d. As for a compliant joint row with its own damping (Eq. 15), the
//          row is J_s v₊ + Σλ₊ = −Γφ/h, φ = s − s*, and in the impulses (the reduced system's unknowns)
//            J_s v₊ + S μ = −Γ φ/h,   S = Σ/h = 1/(h²k + h d),   Γ/h = k/(h k + d),
//          i.e. h(hk + d) J_s v₊ + μ = −h k φ: multiply λ₊ = −kφ − (hk + d)ṡ₊ by h. Exact for the
//          linearised step, whatever k, d and h (no stability bound: the PD force is implicit). So a
//          servo row is a joint row with compliance 1/k and its own damping d, as a cable DOF is.
//   motor  ṡ₊ = ṡ*: a velocity row J_s v₊ + S μ = ṡ*, with S = C/h² of a rigid row (the default
//          compliance) to keep the reduced system positive definite when the motor duplicates a
//          joint row. Its φ is 0: a motor holds no position; ṡ* is added to the row's −Γφ/h.
// Either may bound its force, |λ| ≤ F (`max_force`), so |μ| ≤ hF: a box on the row's multiplier
// (a mixed LCP, Andrews §1.2): such a row is a box-bounded unilateral row of mixed_lcp.hpp
// (compliant_unilateral.cpp, append_drive_rows), U = J_s, s = S, c = the right-hand side above,
// −hF ≤ μ ≤ hF; an unbounded drive stays a bilateral row of J, solved with the joints.
//
// A motor against its joint's limit (the same coordinate bounded, limits_deg or limits): an unbounded
// motor is a rigid row ṡ₊ = ṡ* and the limit a rigid row s₊ ≤ max; once s reaches max with ṡ* > 0 the
// two ask for different velocities, the pair has no solution, and the step's λ grew to ~10¹² N·m (a
// hinge motor at 100 rad/s into a 10° stop froze at 4.6° with 5·10¹¹ J in its rows). The limit wins, as
// in Bullet (btHingeConstraint's motor factor ramps the motor's target velocity to 0 at a limit): the
// target is cut to the rate that lands s on the limit at the end of the step,
//   ṡ*_eff = clamp(ṡ*, (min + ε − s)/h, (max − ε − s)/h),   ε = kMotorLimitInside,
// so that the two rows agree and the motor stops at the stop, holding there with whatever torque keeps
// the body at rest. A motor with max_force F is not cut: it stalls against the stop and presses with
// all of F (the limit row takes F on top of the other loads), which is what a real motor does.
//
// A hinge's twist wraps at ±π, so a servo's error φ is taken as the remainder of s − s* in (−π, π]:
// the servo turns the short way to its set point modulo a turn. On a limited hinge s is the continuous
// angle (joints/joint_turns.hpp, which may count turns past ±π) and φ = s − s*, the way inside the range. Drives add no geometric stiffness
// (K̃ of the joint rows only): their forces are moderate next to the joints' holding forces.
#include <limits>
#include <optional>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// Where an unbounded motor stops inside its limit: the limit rows' own ε (compliant_unilateral.cpp,
/// kLimitInside), so that the motor and the limit ask for the same velocity.
inline constexpr double kMotorLimitInside = 1e-7;

struct DriveRow {
  enum class Kind { motor, servo } kind = Kind::motor;
  RigidCoordinate coordinate = RigidCoordinate::twist;
  double target = 0.0;     ///< motor: ṡ* (rad/s, m/s); servo: s* (rad, m)
  double stiffness = 0.0;  ///< servo k
  double damping = 0.0;    ///< servo d
  double max_force = std::numeric_limits<double>::infinity();  ///< F, N·m or N
  /// The joint's limit on the driven coordinate (rad, m), ±∞ where it has none.
  double min = -std::numeric_limits<double>::infinity(), max = std::numeric_limits<double>::infinity();

  bool bounded() const { return max_force < std::numeric_limits<double>::infinity(); }
  /// φ of the row from the coordinate s: s − s* (wrapped for an angle) for a servo, 0 for a motor.
  double error(double s) const;
  /// The row's compliance C and damping b in the joint rows' spring–damper form (Eq. 14–17), which
  /// makes S = C/(h(h + Cb)) and Γ = h/(h + Cb): a servo's 1/k and d (header); a motor's rigid C.
  double compliance(double rigid_compliance) const;
  double own_damping() const { return kind == Kind::servo ? damping : 0.0; }
  /// What the row adds to its right-hand side −Γφ/h at coordinate s over a step h: an unbounded motor's
  /// ṡ* cut at its limits (header), a bounded one's ṡ*, nothing for a servo.
  double target_rate(double s, double h) const;
  /// ṡ* uncut (a bounded motor's rate, which is never cut), nothing for a servo.
  double target_rate() const { return kind == Kind::motor ? target : 0.0; }
};

/// The joint's drive (motor or servo) as a row, with its limits on the driven coordinate (`joint`'s), or
/// nothing when it has none. The joint types that take
/// one (hinge, prismatic, slider with direction) are the scene reader's to enforce.
std::optional<DriveRow> drive_row(const JointDef& def, const RigidJoint& joint);

}  // namespace affix
