#include "affix/distance/point_plane.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"

namespace affix {
namespace {

using namespace distance_detail;

/// (w, a, b) = S (p, t0, t1, t2).
Eigen::Matrix<double, 9, 12> point_plane_selection() {
  Eigen::Matrix<double, 9, 12> S;
  S << combination<4>({1.0, -1.0, 0.0, 0.0}), combination<4>({0.0, -1.0, 1.0, 0.0}),
      combination<4>({0.0, -1.0, 0.0, 1.0});
  return S;
}

}  // namespace

double point_plane_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  const Vec3 n = (t1 - t0).cross(t2 - t0);
  const double D = n.squaredNorm();
  assert(D > 0.0 && "point_plane_distance: degenerate triangle");
  const double s = distance_detail::reduced_triple_product(p - t0, t1 - t0, t2 - t0);
  return s * s / D;
}

Vec12 point_plane_distance_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  assert((t1 - t0).cross(t2 - t0).squaredNorm() > 0.0 && "point_plane_distance_gradient: degenerate triangle");
  return point_plane_selection().transpose() * offset_plane_distance_gradient(p - t0, t1 - t0, t2 - t0);
}

Mat12 point_plane_distance_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  assert((t1 - t0).cross(t2 - t0).squaredNorm() > 0.0 && "point_plane_distance_hessian: degenerate triangle");
  const Eigen::Matrix<double, 9, 12> S = point_plane_selection();
  return S.transpose() * offset_plane_distance_hessian(p - t0, t1 - t0, t2 - t0) * S;
}

}  // namespace affix
