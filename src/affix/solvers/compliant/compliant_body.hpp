#pragma once
// A rigid body in maximal coordinates (DESIGN §2; Andrews 2017 §1.1, Tomcin 2014 §3): centre of mass c
// and unit quaternion, world velocity v of the centre of mass and world angular momentum L, from which
// ω = I_w⁻¹ L with the world inertia I_w = R I Rᵀ. Keeping L rather than ω makes a torque-free step
// conserve angular momentum exactly (the gyroscopic term ω × I_w ω is then implicit in the change of
// I_w), which a velocity-level step with ω as state does not. Written for the compliant solver and
// meant to be shared by any rigid back-end (impulse): nothing here knows a solver.
#include <vector>

#include "affix/math/types.hpp"
#include "affix/model/body_state.hpp"
#include "affix/model/model.hpp"

namespace affix {

struct CompliantBody {
  double mass = 0.0;
  Mat3 inertia = Mat3::Identity();     ///< about the centre of mass, rest axes (ModelBody::inertia)
  Vec3 rest_center = Vec3::Zero();     ///< c̄, the centre of mass in the rest frame
  // State.
  Vec3 c = Vec3::Zero();               ///< world centre of mass
  Quat q = Quat::Identity();           ///< rotation R = q
  Vec3 v = Vec3::Zero();               ///< world velocity of the centre of mass
  Vec3 L = Vec3::Zero();               ///< world angular momentum about the centre of mass

  Mat3 R() const { return q.toRotationMatrix(); }
  /// I_w = R I Rᵀ.
  Mat3 world_inertia() const;
  /// ω = I_w⁻¹ L.
  Vec3 omega() const;
  /// ½ m v² + ½ ω·L.
  double kinetic_energy() const;
  /// The pose every writer reads (DESIGN §4): A = R, p = c − R c̄ (the body origin).
  BodyPose pose() const;
  /// The body origin's velocity v + ω × (p − c), ω, Ȧ = [ω]ₓR.
  BodyVelocity velocity() const;
  /// Sets the state from a world pose of the body origin (p, R) and its twist (origin velocity, ω).
  void set_motion(const Vec3& p, const Mat3& R, const Vec3& origin_velocity, const Vec3& omega);
  /// Advances the pose by h at the current v and ω: c += h v, q ← exp(h ω) q (normalised).
  void integrate_pose(double h);
};

/// The rigid bodies of a model, in model order, at t = 0.
std::vector<CompliantBody> compliant_bodies(const Model& model);

}  // namespace affix
