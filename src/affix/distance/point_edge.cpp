#include "affix/distance/point_edge.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"
#include "affix/distance/point_line.hpp"
#include "affix/distance/point_point.hpp"

namespace affix {

using distance_detail::scatter_gradient;
using distance_detail::scatter_hessian;

double point_edge_distance(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return point_edge_distance(p, e0, e1, point_edge_distance_type(p, e0, e1));
}

double point_edge_distance(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeDistanceType type) {
  switch (type) {
    case PointEdgeDistanceType::P_E0: return point_point_distance(p, e0);
    case PointEdgeDistanceType::P_E1: return point_point_distance(p, e1);
    case PointEdgeDistanceType::P_E: return point_line_distance(p, e0, e1);
  }
  assert(false && "point_edge_distance: unknown type");
  return 0.0;
}

Vec9 point_edge_distance_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return point_edge_distance_gradient(p, e0, e1, point_edge_distance_type(p, e0, e1));
}

Vec9 point_edge_distance_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeDistanceType type) {
  switch (type) {
    case PointEdgeDistanceType::P_E0: return scatter_gradient<3, 2>(point_point_distance_gradient(p, e0), {0, 1});
    case PointEdgeDistanceType::P_E1: return scatter_gradient<3, 2>(point_point_distance_gradient(p, e1), {0, 2});
    case PointEdgeDistanceType::P_E: return point_line_distance_gradient(p, e0, e1);
  }
  assert(false && "point_edge_distance_gradient: unknown type");
  return Vec9::Zero();
}

Mat9 point_edge_distance_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return point_edge_distance_hessian(p, e0, e1, point_edge_distance_type(p, e0, e1));
}

Mat9 point_edge_distance_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeDistanceType type) {
  switch (type) {
    case PointEdgeDistanceType::P_E0: return scatter_hessian<3, 2>(point_point_distance_hessian(p, e0), {0, 1});
    case PointEdgeDistanceType::P_E1: return scatter_hessian<3, 2>(point_point_distance_hessian(p, e1), {0, 2});
    case PointEdgeDistanceType::P_E: return point_line_distance_hessian(p, e0, e1);
  }
  assert(false && "point_edge_distance_hessian: unknown type");
  return Mat9::Zero();
}

}  // namespace affix
