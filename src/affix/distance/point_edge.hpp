#pragma once
// Squared distance from a point to a segment (Li et al. 2020, "Incremental Potential Contact", §4):
//   d(p, [e0, e1]) = min over t ∈ [0, 1] of |p − (e0 + t (e1 − e0))|²
//     = |p − e0|²              (P_E0, t* ≤ 0)
//     = |p − e1|²              (P_E1, t* ≥ 1)
//     = |r × e|² / |e|²        (P_E, the line; r = p − e0, e = e1 − e0)
// with t* = e · r / |e|² (distance_type.hpp). Each function evaluates the sub-distance of the given type
// (or of the classified type when none is given) and scatters its derivatives into the stacked
// x = (p, e0, e1): the point-point ones into the two vertices involved, zero elsewhere. d is C¹ across
// the type boundaries; ∇²d jumps there. Degenerate edge (e0 = e1): classified P_E0, which is exact.
#include "affix/distance/distance_type.hpp"
#include "affix/distance/stencil_types.hpp"

namespace affix {

double point_edge_distance(const Vec3& p, const Vec3& e0, const Vec3& e1);
double point_edge_distance(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeDistanceType type);

Vec9 point_edge_distance_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1);
Vec9 point_edge_distance_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeDistanceType type);

Mat9 point_edge_distance_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1);
Mat9 point_edge_distance_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1, PointEdgeDistanceType type);

}  // namespace affix
