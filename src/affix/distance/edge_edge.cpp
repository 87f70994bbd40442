#include "affix/distance/edge_edge.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"
#include "affix/distance/line_line.hpp"
#include "affix/distance/point_line.hpp"
#include "affix/distance/point_point.hpp"

namespace affix {

using distance_detail::scatter_gradient;
using distance_detail::scatter_hessian;
using EE = EdgeEdgeDistanceType;

double edge_edge_distance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return edge_edge_distance(ea0, ea1, eb0, eb1, edge_edge_distance_type(ea0, ea1, eb0, eb1));
}

double edge_edge_distance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                          EdgeEdgeDistanceType type) {
  switch (type) {
    case EE::EA0_EB0: return point_point_distance(ea0, eb0);
    case EE::EA0_EB1: return point_point_distance(ea0, eb1);
    case EE::EA1_EB0: return point_point_distance(ea1, eb0);
    case EE::EA1_EB1: return point_point_distance(ea1, eb1);
    case EE::EA_EB0: return point_line_distance(eb0, ea0, ea1);
    case EE::EA_EB1: return point_line_distance(eb1, ea0, ea1);
    case EE::EA0_EB: return point_line_distance(ea0, eb0, eb1);
    case EE::EA1_EB: return point_line_distance(ea1, eb0, eb1);
    case EE::EA_EB: return line_line_distance(ea0, ea1, eb0, eb1);
  }
  assert(false && "edge_edge_distance: unknown type");
  return 0.0;
}

Vec12 edge_edge_distance_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return edge_edge_distance_gradient(ea0, ea1, eb0, eb1, edge_edge_distance_type(ea0, ea1, eb0, eb1));
}

Vec12 edge_edge_distance_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                  EdgeEdgeDistanceType type) {
  switch (type) {
    case EE::EA0_EB0: return scatter_gradient<4, 2>(point_point_distance_gradient(ea0, eb0), {0, 2});
    case EE::EA0_EB1: return scatter_gradient<4, 2>(point_point_distance_gradient(ea0, eb1), {0, 3});
    case EE::EA1_EB0: return scatter_gradient<4, 2>(point_point_distance_gradient(ea1, eb0), {1, 2});
    case EE::EA1_EB1: return scatter_gradient<4, 2>(point_point_distance_gradient(ea1, eb1), {1, 3});
    case EE::EA_EB0: return scatter_gradient<4, 3>(point_line_distance_gradient(eb0, ea0, ea1), {2, 0, 1});
    case EE::EA_EB1: return scatter_gradient<4, 3>(point_line_distance_gradient(eb1, ea0, ea1), {3, 0, 1});
    case EE::EA0_EB: return scatter_gradient<4, 3>(point_line_distance_gradient(ea0, eb0, eb1), {0, 2, 3});
    case EE::EA1_EB: return scatter_gradient<4, 3>(point_line_distance_gradient(ea1, eb0, eb1), {1, 2, 3});
    case EE::EA_EB: return line_line_distance_gradient(ea0, ea1, eb0, eb1);
  }
  assert(false && "edge_edge_distance_gradient: unknown type");
  return Vec12::Zero();
}

Mat12 edge_edge_distance_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return edge_edge_distance_hessian(ea0, ea1, eb0, eb1, edge_edge_distance_type(ea0, ea1, eb0, eb1));
}

Mat12 edge_edge_distance_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                 EdgeEdgeDistanceType type) {
  switch (type) {
    case EE::EA0_EB0: return scatter_hessian<4, 2>(point_point_distance_hessian(ea0, eb0), {0, 2});
    case EE::EA0_EB1: return scatter_hessian<4, 2>(point_point_distance_hessian(ea0, eb1), {0, 3});
    case EE::EA1_EB0: return scatter_hessian<4, 2>(point_point_distance_hessian(ea1, eb0), {1, 2});
    case EE::EA1_EB1: return scatter_hessian<4, 2>(point_point_distance_hessian(ea1, eb1), {1, 3});
    case EE::EA_EB0: return scatter_hessian<4, 3>(point_line_distance_hessian(eb0, ea0, ea1), {2, 0, 1});
    case EE::EA_EB1: return scatter_hessian<4, 3>(point_line_distance_hessian(eb1, ea0, ea1), {3, 0, 1});
    case EE::EA0_EB: return scatter_hessian<4, 3>(point_line_distance_hessian(ea0, eb0, eb1), {0, 2, 3});
    case EE::EA1_EB: return scatter_hessian<4, 3>(point_line_distance_hessian(ea1, eb0, eb1), {1, 2, 3});
    case EE::EA_EB: return line_line_distance_hessian(ea0, ea1, eb0, eb1);
  }
  assert(false && "edge_edge_distance_hessian: unknown type");
  return Mat12::Zero();
}

}  // namespace affix
