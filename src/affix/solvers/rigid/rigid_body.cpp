#include "affix/solvers/rigid/rigid_body.hpp"

#include "affix/body/kinematic_motion.hpp"
#include "affix/math/rotation.hpp"

#include <Eigen/LU>

namespace affix {

std::vector<RigidBody> rigid_bodies(const Model& model) {
  std::vector<RigidBody> out;
  out.reserve(model.bodies.size());
  for (const ModelBody& b : model.bodies) {
    RigidBody r;
    r.mass = b.mass;
    r.inertia = b.inertia;
    r.rest_center = b.center_of_mass;
    r.prescribed = b.is_dirichlet();
    if (!r.prescribed) {
      r.inverse_mass = 1.0 / b.mass;
      r.inverse_inertia = b.inertia.inverse();
    }
    const RigidPose pose = initial_rigid_pose(b);
    r.c = pose.c;
    r.q = Quat(pose.R).normalized();
    r.v = b.velocity + b.angular_velocity.cross(r.c - b.position);
    r.omega = b.angular_velocity;
    out.push_back(r);
  }
  return out;
}

RigidDrift drift(const Vec3& c, const Quat& q, const Vec3& v, const Vec3& omega, double h) {
  const double angle = h * omega.norm();
  const Quat turn = angle > 0.0 ? Quat(Eigen::AngleAxisd(angle, omega.normalized())) : Quat::Identity();
  return {c + h * v, (turn * q).normalized()};
}

void gyroscopic_step(RigidBody& body, double h) {
  const Mat3 R = body.rotation();
  const Vec3 w = R.transpose() * body.omega;
  const Mat3& I = body.inertia;
  const Vec3 f = h * w.cross(I * w);  // f at ω' = ω
  const Mat3 J = I + h * (skew(w) * I - skew(I * w));
  body.omega = R * (w - J.lu().solve(f));
}

BodyPose body_pose(const RigidBody& body) {
  const Mat3 R = body.rotation();
  return {body.c - R * body.rest_center, R};
}

BodyVelocity body_velocity(const RigidBody& body) {
  const Mat3 R = body.rotation();
  BodyVelocity out;
  out.angular = body.angular_velocity();
  out.linear = body.v - out.angular.cross(R * body.rest_center);
  out.A_dot = skew(out.angular) * R;
  return out;
}

std::vector<BodyPose> body_poses(const std::vector<RigidBody>& bodies, int count) {
  std::vector<BodyPose> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) out.push_back(body_pose(bodies[i]));
  return out;
}

std::vector<BodyVelocity> body_velocities(const std::vector<RigidBody>& bodies, int count) {
  std::vector<BodyVelocity> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) out.push_back(body_velocity(bodies[i]));
  return out;
}

void set_rigid_state(RigidBody& body, const BodyPose& pose, const BodyVelocity& velocity) {
  const Vec3 lever = pose.A * body.rest_center;
  body.c = pose.p + lever;
  body.q = Quat(pose.A).normalized();
  body.omega = velocity.angular;
  body.v = velocity.linear + velocity.angular.cross(lever);
}

PrescribedMotion::PrescribedMotion(const ModelBody& body) {
  static_cast<ModelBody&>(body_) = body;
  body_.q0 = affine_state(body.position, body.rotation);
}

RigidPose PrescribedMotion::at(double t) const {
  const Vec12 q = prescribed_state(body_, t);
  const Mat3 R = state_matrix(q);
  return {state_translation(q) + R * body_.center_of_mass, R};
}

void PrescribedMotion::twist(double t, double h, Vec3& v, Vec3& omega) const {
  const RigidPose a = at(t), b = at(t + h);
  v = (b.c - a.c) / h;
  const Eigen::AngleAxisd turn(b.R * a.R.transpose());
  omega = turn.angle() * turn.axis() / h;
}

void PrescribedMotion::set_target(double t0, const BodyPose& from, double t1, const BodyPose& to) {
  Kinematic motion;
  motion.keyframes = {{t0, from.p, Quat(from.A).normalized()}, {t1, to.p, Quat(to.A).normalized()}};
  body_.kinematic = motion;
}

}  // namespace affix
