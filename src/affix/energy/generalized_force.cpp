#include "affix/energy/generalized_force.hpp"

#include "affix/math/rotation.hpp"

namespace affix {

Vec12 gravity_force(const AffineBody& body, const Vec3& g) {
  const Vec3 first_moment = body.mass * body.center_of_mass;
  Vec12 f;
  f << body.mass * g, g[0] * first_moment, g[1] * first_moment, g[2] * first_moment;
  return f;
}

Vec12 point_force(const Vec3& x_bar, const Vec3& force) {
  return point_jacobian(x_bar).transpose() * force;
}

Vec12 torque_force(const Mat3& A, const Vec3& torque) {
  const Mat3 FA = 0.5 * skew(torque) * A;
  return affine_state(Vec3::Zero(), FA);
}

}  // namespace affix
