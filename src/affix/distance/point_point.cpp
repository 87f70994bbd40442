#include "affix/distance/point_point.hpp"

namespace affix {

double point_point_distance(const Vec3& p0, const Vec3& p1) { return (p0 - p1).squaredNorm(); }

Vec6 point_point_distance_gradient(const Vec3& p0, const Vec3& p1) {
  const Vec3 u = 2.0 * (p0 - p1);
  Vec6 g;
  g << u, -u;
  return g;
}

Mat6 point_point_distance_hessian(const Vec3& /*p0*/, const Vec3& /*p1*/) {
  const Mat3 I2 = 2.0 * Mat3::Identity();
  Mat6 H;
  H << I2, -I2, -I2, I2;
  return H;
}

}  // namespace affix
