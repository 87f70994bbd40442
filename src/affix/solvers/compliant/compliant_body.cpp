#include "affix/solvers/compliant/compliant_body.hpp"

#include "affix/math/rotation.hpp"

namespace affix {

Mat3 CompliantBody::world_inertia() const {
  const Mat3 Rm = R();
  return Rm * inertia * Rm.transpose();
}

Vec3 CompliantBody::omega() const {
  const Mat3 Rm = R();
  // I_w⁻¹ = R I⁻¹ Rᵀ; I is symmetric positive definite for a body with volume.
  return Rm * inertia.ldlt().solve(Rm.transpose() * L);
}

double CompliantBody::kinetic_energy() const { return 0.5 * mass * v.squaredNorm() + 0.5 * omega().dot(L); }

BodyPose CompliantBody::pose() const {
  const Mat3 Rm = R();
  return {c - Rm * rest_center, Rm};
}

BodyVelocity CompliantBody::velocity() const {
  const Mat3 Rm = R();
  const Vec3 w = omega();
  return {v + w.cross(-Rm * rest_center), w, skew(w) * Rm};
}

void CompliantBody::set_motion(const Vec3& p, const Mat3& R0, const Vec3& origin_velocity, const Vec3& w) {
  q = Quat(R0).normalized();
  const Vec3 lever = q.toRotationMatrix() * rest_center;
  c = p + lever;
  v = origin_velocity + w.cross(lever);
  L = world_inertia() * w;
}

void CompliantBody::integrate_pose(double h) {
  c += h * v;
  q = (Quat(rotation_from_rotation_vector(h * omega())) * q).normalized();
}

std::vector<CompliantBody> compliant_bodies(const Model& model) {
  std::vector<CompliantBody> out;
  out.reserve(model.bodies.size());
  for (const ModelBody& b : model.bodies) {
    CompliantBody r;
    r.mass = b.mass;
    r.inertia = b.inertia;
    r.rest_center = b.center_of_mass;
    r.set_motion(b.position, b.rotation, b.velocity, b.angular_velocity);
    out.push_back(r);
  }
  return out;
}

}  // namespace affix
