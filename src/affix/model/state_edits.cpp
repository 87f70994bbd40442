#include "affix/model/state_edits.hpp"

#include <cmath>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"
#include "affix/model/start_checks.hpp"

namespace affix {
namespace {

std::string body_label(const Model& model, int body) {
  return "bodies[" + std::to_string(body) + "] ('" + excerpt(model.bodies[body].name) + "')";
}

}  // namespace

void check_body_index(const Model& model, int body, const std::string& request) {
  const int n = static_cast<int>(model.bodies.size());
  if (body >= 0 && body < n) return;
  throw InputError(request + ": body " + std::to_string(body) + ": expected an index from 0 to " +
                   std::to_string(n - 1) + " (the scene has " + std::to_string(n) + " bodies)");
}

void check_state(const Model& model, const std::vector<BodyPose>& current, const std::vector<BodyPose>& poses,
                 const std::vector<BodyVelocity>& velocities) {
  const std::size_t n = model.bodies.size();
  if (poses.size() != n || velocities.size() != n)
    throw InputError("set_state: " + std::to_string(poses.size()) + " poses and " +
                     std::to_string(velocities.size()) + " velocities: expected one of each per body (" +
                     std::to_string(n) + ")");
  Model posed = model;  // the start checks read the model's initial poses; meshes are shared
  for (std::size_t i = 0; i < n; ++i) {
    const int b = static_cast<int>(i);
    const BodyPose& x = poses[i];
    const BodyVelocity& v = velocities[i];
    if (!x.p.allFinite() || !x.A.allFinite() || !v.linear.allFinite() || !v.angular.allFinite() || !v.A_dot.allFinite())
      throw InputError("set_state: " + body_label(model, b) + ": expected finite numbers");
    if (!(x.A.determinant() > 0.0))
      throw InputError("set_state: " + body_label(model, b) + ".rotation: det A = " + number_text(x.A.determinant()) +
                       ": expected a map that keeps orientation (det A > 0)");
    const ModelBody& body = model.bodies[i];
    if (body.is_dirichlet() && (x.p != current[i].p || x.A != current[i].A))
      throw InputError("set_state: " + body_label(model, b) + " is " + (body.fixed ? "fixed" : "kinematic") +
                       ": its pose is prescribed (expected its current pose" +
                       (body.fixed ? ")" : "; move it with set_kinematic_target)"));
    posed.bodies[i].position = x.p;
    posed.bodies[i].rotation = x.A;
  }
  try {
    refuse_bodies_below_ground(posed);
    refuse_intersecting_bodies(posed);
  } catch (const InputError& e) {
    throw InputError(std::string("set_state: the new state: ") + e.what());
  }
}

AppliedForce applied_force(const Model& model, int body, const BodyPose& pose, const Vec3& force, const Vec3& point) {
  check_body_index(model, body, "apply_force");
  if (!force.allFinite() || !point.allFinite())
    throw InputError("apply_force: " + body_label(model, body) + ": expected a finite force and point");
  return {body, force, pose.A.inverse() * (point - pose.p)};
}

void check_kinematic_target(const Model& model, int body, const BodyPose& target) {
  check_body_index(model, body, "set_kinematic_target");
  const ModelBody& b = model.bodies[body];
  if (!b.kinematic)
    throw InputError("set_kinematic_target: " + body_label(model, body) + " is " + (b.fixed ? "fixed" : "dynamic") +
                     ": expected a body with a `kinematic` motion in the scene");
  if (!target.p.allFinite() || !target.A.allFinite())
    throw InputError("set_kinematic_target: " + body_label(model, body) + ": expected finite numbers");
  if (!((target.A.transpose() * target.A - Mat3::Identity()).norm() <= 1e-9) || !(target.A.determinant() > 0.0))
    throw InputError("set_kinematic_target: " + body_label(model, body) + ".rotation: expected a rotation matrix");
}

void check_rigid_rotations(const Model& model, const std::vector<BodyPose>& poses, const char* solver) {
  for (std::size_t i = 0; i < poses.size() && i < model.bodies.size(); ++i) {
    const Mat3& A = poses[i].A;
    if (!((A.transpose() * A - Mat3::Identity()).norm() <= 1e-9) || !(A.determinant() > 0.0))
      throw InputError("set_state: " + body_label(model, static_cast<int>(i)) + ".rotation: expected a rotation " +
                       "matrix (‖AᵀA − I‖ ≤ 1e-9, det A > 0): the " + solver + " solver's bodies are rigid");
  }
}

void check_drive_setting(const Model& model, int joint, DriveSetting setting, double value) {
  const bool motor = setting == DriveSetting::motor_speed;
  const std::string request = motor ? "set_motor_speed" : "set_servo_target";
  const int n = static_cast<int>(model.joints.size());
  if (joint < 0 || joint >= n)
    throw InputError(request + ": joint " + std::to_string(joint) + ": expected an index from 0 to " +
                     std::to_string(n - 1) + " (the scene has " + std::to_string(n) + " joints)");
  const JointDef& def = model.joints[joint].def;
  const std::string label = "joints[" + std::to_string(joint) + "] ('" + excerpt(def.name) + "')";
  if (motor ? !def.motor : !def.servo)
    throw InputError(request + ": " + label + " has no " + (motor ? "motor" : "servo") + " (expected a joint with a `" +
                     (motor ? "motor" : "servo") + "` in the scene)");
  // The scene reader's bound on `velocity` and `position` (scene/joint_reader.cpp).
  if (!(std::abs(value) <= 1e6))
    throw InputError(request + ": " + label + ": " + number_text(value) + ": expected a finite number within ±1e6 (" +
                     (motor ? "rad/s or m/s" : "rad or m") + ")");
}

}  // namespace affix
