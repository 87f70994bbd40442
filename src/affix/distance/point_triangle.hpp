#pragma once
// Squared distance from a point to a triangle (Li et al. 2020, "Incremental Potential Contact", §4):
//   d(p, T) = min over x ∈ T of |p − x|², evaluated as the sub-distance of the closest feature pair:
//     P_T0, P_T1, P_T2   |p − t_i|²                      (a vertex)
//     P_E0, P_E1, P_E2   point-line to edge (t0,t1), (t1,t2), (t2,t0)
//     P_T                (w · n)² / |n|², w = p − t0, n = (t1 − t0) × (t2 − t0)   (the plane)
// The type comes from point_triangle_distance_type (distance_type.hpp) unless given. Derivatives are on
// the stacked x = (p, t0, t1, t2) ∈ R¹²: a sub-distance's gradient and Hessian are scattered into the
// vertices it involves, zero elsewhere. d is C¹ across type boundaries; ∇²d jumps there.
// Degenerate triangles are classified onto their edges and vertices, which is exact for them.
#include "affix/distance/distance_type.hpp"
#include "affix/distance/stencil_types.hpp"

namespace affix {

double point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
double point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                               PointTriangleDistanceType type);

Vec12 point_triangle_distance_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
Vec12 point_triangle_distance_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                       PointTriangleDistanceType type);

Mat12 point_triangle_distance_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
Mat12 point_triangle_distance_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                      PointTriangleDistanceType type);

}  // namespace affix
