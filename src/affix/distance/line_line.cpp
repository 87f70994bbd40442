#include "affix/distance/line_line.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"

namespace affix {
namespace {

using namespace distance_detail;

/// (w, a, b) = S (ea0, ea1, eb0, eb1).
Eigen::Matrix<double, 9, 12> line_line_selection() {
  Eigen::Matrix<double, 9, 12> S;
  S << combination<4>({-1.0, 0.0, 1.0, 0.0}), combination<4>({-1.0, 1.0, 0.0, 0.0}),
      combination<4>({0.0, 0.0, -1.0, 1.0});
  return S;
}

}  // namespace

double line_line_distance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  const Vec3 n = (ea1 - ea0).cross(eb1 - eb0);
  const double D = n.squaredNorm();
  assert(D > 0.0 && "line_line_distance: parallel lines");
  const double s = distance_detail::reduced_triple_product(eb0 - ea0, ea1 - ea0, eb1 - eb0);
  return s * s / D;
}

Vec12 line_line_distance_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  assert((ea1 - ea0).cross(eb1 - eb0).squaredNorm() > 0.0 && "line_line_distance_gradient: parallel lines");
  return line_line_selection().transpose() * offset_plane_distance_gradient(eb0 - ea0, ea1 - ea0, eb1 - eb0);
}

Mat12 line_line_distance_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  assert((ea1 - ea0).cross(eb1 - eb0).squaredNorm() > 0.0 && "line_line_distance_hessian: parallel lines");
  const Eigen::Matrix<double, 9, 12> S = line_line_selection();
  return S.transpose() * offset_plane_distance_hessian(eb0 - ea0, ea1 - ea0, eb1 - eb0) * S;
}

}  // namespace affix
