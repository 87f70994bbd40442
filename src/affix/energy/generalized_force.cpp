#include "affix/energy/generalized_force.hpp"

#include <cmath>

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

std::vector<Vec3> force_rest_points(const std::vector<ForceDef>& forces, const std::vector<AffineBody>& bodies) {
  std::vector<Vec3> points;
  for (const ForceDef& f : forces) {
    const Vec12& q0 = bodies[f.body_index].q0;
    const Vec3 world = f.point.value_or(state_translation(q0));
    points.push_back(state_matrix(q0).inverse() * (world - state_translation(q0)));
  }
  return points;
}

void add_external_loads(std::vector<Vec12>& loads, const std::vector<ForceDef>& forces,
                        const std::vector<Vec3>& rest_points, double t, const std::function<Mat3(int)>& A_of) {
  std::vector<Vec12> lost(loads.size(), Vec12::Zero());  // what rounding dropped, per body
  for (std::size_t k = 0; k < forces.size(); ++k) {
    const ForceDef& f = forces[k];
    if (t < f.start || t >= f.end) continue;
    const Vec12 load = point_force(rest_points[k], f.force) + torque_force(A_of(f.body_index), f.torque);
    Vec12& sum = loads[f.body_index];
    for (int r = 0; r < kAffineDofs; ++r) {
      const double total = sum[r] + load[r];
      lost[f.body_index][r] += std::abs(sum[r]) >= std::abs(load[r]) ? (sum[r] - total) + load[r]
                                                                      : (load[r] - total) + sum[r];
      sum[r] = total;
    }
  }
  for (std::size_t i = 0; i < loads.size(); ++i) loads[i] += lost[i];
}

}  // namespace affix
