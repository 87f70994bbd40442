#include "affix/distance/point_line.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"

namespace affix {
namespace {

using namespace distance_detail;

/// (r, e) = S (p, e0, e1).
Eigen::Matrix<double, 6, 9> point_line_selection() {
  Eigen::Matrix<double, 6, 9> S;
  S << combination<3>({1.0, -1.0, 0.0}), combination<3>({0.0, -1.0, 1.0});
  return S;
}

}  // namespace

double point_line_distance(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 e = e1 - e0;
  const double D = e.squaredNorm();
  assert(D > 0.0 && "point_line_distance: degenerate edge");
  return (p - e0).cross(e).squaredNorm() / D;
}

Vec9 point_line_distance_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 r = p - e0, e = e1 - e0;
  const double D = e.squaredNorm();
  assert(D > 0.0 && "point_line_distance_gradient: degenerate edge");
  Vec6 grad_d = Vec6::Zero();
  grad_d.tail<3>() = 2.0 * e;
  const Vec6 g = quotient_gradient<6>(r.cross(e).squaredNorm(), cross_squarednorm_gradient(r, e), D, grad_d);
  return point_line_selection().transpose() * g;
}

Mat9 point_line_distance_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 r = p - e0, e = e1 - e0;
  const double D = e.squaredNorm();
  assert(D > 0.0 && "point_line_distance_hessian: degenerate edge");
  Vec6 grad_d = Vec6::Zero();
  grad_d.tail<3>() = 2.0 * e;
  Mat6 hess_d = Mat6::Zero();
  hess_d.bottomRightCorner<3, 3>() = 2.0 * Mat3::Identity();
  const Mat6 H = quotient_hessian<6>(r.cross(e).squaredNorm(), cross_squarednorm_gradient(r, e),
                                     cross_squarednorm_hessian(r, e), D, grad_d, hess_d);
  const Eigen::Matrix<double, 6, 9> S = point_line_selection();
  return S.transpose() * H * S;
}

}  // namespace affix
