#include "affix/distance/point_triangle.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"
#include "affix/distance/point_line.hpp"
#include "affix/distance/point_plane.hpp"
#include "affix/distance/point_point.hpp"

namespace affix {

using distance_detail::scatter_gradient;
using distance_detail::scatter_hessian;
using PT = PointTriangleDistanceType;

double point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_triangle_distance(p, t0, t1, t2, point_triangle_distance_type(p, t0, t1, t2));
}

double point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                               PointTriangleDistanceType type) {
  switch (type) {
    case PT::P_T0: return point_point_distance(p, t0);
    case PT::P_T1: return point_point_distance(p, t1);
    case PT::P_T2: return point_point_distance(p, t2);
    case PT::P_E0: return point_line_distance(p, t0, t1);
    case PT::P_E1: return point_line_distance(p, t1, t2);
    case PT::P_E2: return point_line_distance(p, t2, t0);
    case PT::P_T: return point_plane_distance(p, t0, t1, t2);
  }
  assert(false && "point_triangle_distance: unknown type");
  return 0.0;
}

Vec12 point_triangle_distance_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_triangle_distance_gradient(p, t0, t1, t2, point_triangle_distance_type(p, t0, t1, t2));
}

Vec12 point_triangle_distance_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                       PointTriangleDistanceType type) {
  switch (type) {
    case PT::P_T0: return scatter_gradient<4, 2>(point_point_distance_gradient(p, t0), {0, 1});
    case PT::P_T1: return scatter_gradient<4, 2>(point_point_distance_gradient(p, t1), {0, 2});
    case PT::P_T2: return scatter_gradient<4, 2>(point_point_distance_gradient(p, t2), {0, 3});
    case PT::P_E0: return scatter_gradient<4, 3>(point_line_distance_gradient(p, t0, t1), {0, 1, 2});
    case PT::P_E1: return scatter_gradient<4, 3>(point_line_distance_gradient(p, t1, t2), {0, 2, 3});
    case PT::P_E2: return scatter_gradient<4, 3>(point_line_distance_gradient(p, t2, t0), {0, 3, 1});
    case PT::P_T: return point_plane_distance_gradient(p, t0, t1, t2);
  }
  assert(false && "point_triangle_distance_gradient: unknown type");
  return Vec12::Zero();
}

Mat12 point_triangle_distance_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_triangle_distance_hessian(p, t0, t1, t2, point_triangle_distance_type(p, t0, t1, t2));
}

Mat12 point_triangle_distance_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                      PointTriangleDistanceType type) {
  switch (type) {
    case PT::P_T0: return scatter_hessian<4, 2>(point_point_distance_hessian(p, t0), {0, 1});
    case PT::P_T1: return scatter_hessian<4, 2>(point_point_distance_hessian(p, t1), {0, 2});
    case PT::P_T2: return scatter_hessian<4, 2>(point_point_distance_hessian(p, t2), {0, 3});
    case PT::P_E0: return scatter_hessian<4, 3>(point_line_distance_hessian(p, t0, t1), {0, 1, 2});
    case PT::P_E1: return scatter_hessian<4, 3>(point_line_distance_hessian(p, t1, t2), {0, 2, 3});
    case PT::P_E2: return scatter_hessian<4, 3>(point_line_distance_hessian(p, t2, t0), {0, 3, 1});
    case PT::P_T: return point_plane_distance_hessian(p, t0, t1, t2);
  }
  assert(false && "point_triangle_distance_hessian: unknown type");
  return Mat12::Zero();
}

}  // namespace affix
