#pragma once
// Rigid bodies in maximal coordinates for the rigid back-ends (impulse, Tomcin 2014; compliant, Andrews
// 2017): the state is the centre of mass c, a unit quaternion q (R = R(q)), the centre-of-mass velocity v
// and the world angular velocity ω; the world inertia is I = R Ī Rᵀ (Ī about the centre of mass in rest
// axes, from the model's mass properties), so M = diag(m 1₃, I) of Tomcin §3.
//
// Why ω and not the angular momentum L: a free flight of h at constant ω turns the body by exactly
// exp(hω), and a body turning about an axis perpendicular to its symmetry axis keeps it so. Holding L
// instead and reading ω = I⁻¹L at the new rotation adds a spin about a thin link's own axis of order
// (I_⊥/I_∥)(hω)²ω each step — 13× amplified on a 0.1 × 0.02 m link — which no joint resists and which
// spoils the next step's joint correction. The gyroscopic term −ω × Iω of Euler's equations enters the
// velocity update implicitly (gyroscopic_step), so a free asymmetric body neither gains energy nor
// blows up at large hω.
//
// Output (DESIGN §2): the same (p, A = R) pose as every solver, with the rest point x̄ at
// R (x̄ − c̄) + c, so p = c − R c̄; the body origin moves at ṗ = v + ω × (p − c) and Ȧ = [ω]ₓR.
#include <vector>

#include <Eigen/Cholesky>

#include "affix/body/affine_body.hpp"
#include "affix/joints/rigid_jacobian.hpp"
#include "affix/model/body_state.hpp"
#include "affix/model/model.hpp"

namespace affix {

struct RigidBody {
  double mass = 0.0;
  double inverse_mass = 0.0;        ///< 0 for a prescribed body (it takes no impulse)
  Mat3 inverse_inertia = Mat3::Zero();  ///< Ī⁻¹ about the centre of mass, rest axes (0 when prescribed)
  Mat3 inertia = Mat3::Zero();      ///< Ī
  Vec3 rest_center = Vec3::Zero();  ///< c̄, the rest-frame centre of mass
  bool prescribed = false;          ///< fixed or kinematic: its pose is a function of time
  // State.
  Vec3 c = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 v = Vec3::Zero();
  Vec3 omega = Vec3::Zero();        ///< world angular velocity (a prescribed body's over its current step)

  Mat3 rotation() const { return q.toRotationMatrix(); }
  RigidPose pose() const { return {c, rotation()}; }
  /// I⁻¹ = R Ī⁻¹ Rᵀ at the current rotation.
  Mat3 world_inverse_inertia() const {
    const Mat3 R = rotation();
    return R * inverse_inertia * R.transpose();
  }
  Vec3 angular_velocity() const { return omega; }
  /// I ω, world.
  Vec3 angular_momentum() const {
    const Mat3 R = rotation();
    return R * (inertia * (R.transpose() * omega));
  }
  /// I = R Ī Rᵀ at the current rotation.
  Mat3 world_inertia() const {
    const Mat3 R = rotation();
    return R * inertia * R.transpose();
  }
  /// Sets ω = I⁻¹ L at the current rotation, for a solver whose step produces angular momentum (the
  /// compliant solver's momenta p = M v). Ī is symmetric positive definite for a body with volume.
  void set_angular_momentum(const Vec3& L) {
    const Mat3 R = rotation();
    omega = R * inertia.ldlt().solve(R.transpose() * L);
  }
  /// ½ m v² + ½ ωᵀ I ω.
  double kinetic_energy() const {
    return prescribed ? 0.0 : 0.5 * mass * v.squaredNorm() + 0.5 * omega.dot(angular_momentum());
  }
};

/// The rigid bodies of a model, in model order, at t = 0: c = position + R c̄, q from the rotation,
/// v = velocity + ω × (c − position), ω = angular_velocity.
std::vector<RigidBody> rigid_bodies(const Model& model);

/// The pose after free flight over h at constant v and ω: c + h v and exp(h ω) q, the exact rotation at
/// constant ω (Tomcin §3: bodies are in free flight between the impulses).
struct RigidDrift {
  Vec3 c;
  Quat q;
};
RigidDrift drift(const Vec3& c, const Quat& q, const Vec3& v, const Vec3& omega, double h);

/// The gyroscopic part of Euler's equations over a time h, Ī ω̇ = −ω × Ī ω in body axes, by backward
/// Euler with one Newton iteration from ω (f(ω') = Ī(ω' − ω) + h ω' × Ī ω', ∂f/∂ω' = Ī + h([ω']ₓĪ − [Īω']ₓ)),
/// which is stable and does not gain energy at any hω; exact (no change) for an isotropic body.
void gyroscopic_step(RigidBody& body, double h);

/// The output pose (p, A = R) and velocity of a rigid body (header comment).
BodyPose body_pose(const RigidBody& body);
BodyVelocity body_velocity(const RigidBody& body);
/// The output poses and velocities of the first `count` bodies (the model's; a solver may append bodies
/// of its own after them, as impulse's body splitting does): what Simulator::poses()/velocities() return.
std::vector<BodyPose> body_poses(const std::vector<RigidBody>& bodies, int count);
std::vector<BodyVelocity> body_velocities(const std::vector<RigidBody>& bodies, int count);
/// The inverse of body_pose and body_velocity (Simulator::set_state): c = p + R c̄, q from R = A (a
/// rotation: check_rigid_rotations), ω as given, v = ṗ + ω × R c̄.
void set_rigid_state(RigidBody& body, const BodyPose& pose, const BodyVelocity& velocity);

/// Prescribed motion of fixed and kinematic bodies, from body/kinematic_motion.hpp's affine state (which
/// is rigid for them): the centre of mass and rotation at any time.
class PrescribedMotion {
 public:
  PrescribedMotion() = default;
  explicit PrescribedMotion(const ModelBody& body);
  RigidPose at(double t) const;
  /// The constant (v, ω) that carries the pose at t to the pose at t + h by drift(): what the body
  /// moves at over that step, as the joint rows see it.
  void twist(double t, double h, Vec3& v, Vec3& omega) const;
  /// Replaces the motion (Simulator::set_kinematic_target): from `from` at t0 to `to` at t1, linear in
  /// the origin's position and by slerp in rotation (two keyframes), held after t1.
  void set_target(double t0, const BodyPose& from, double t1, const BodyPose& to);

 private:
  AffineBody body_;
};

}  // namespace affix
