#pragma once
// Which pair of features (vertex, edge interior, triangle interior) realises the distance between two
// simplices — the Voronoi region of the closest point — so that the distance can be evaluated as one
// smooth sub-distance (point-point, point-line, point-plane or line-line). Li et al. 2020, "Incremental
// Potential Contact", §4: the unsigned distance between a point and a triangle, or between two edges, is
// the distance of their closest feature pair, and IPC differentiates that sub-distance.
//
// Point-edge. With e = e1 − e0 and the projection parameter t = e · (p − e0) / |e|²:
//   t < 0 → P_E0 (vertex e0),  t > 1 → P_E1 (vertex e1),  otherwise P_E (the line).
//   Degenerate: e0 = e1 → P_E0.
//
// Point-triangle. Edges are E0 = (t0, t1), E1 = (t1, t2), E2 = (t2, t0). With n = (t1 − t0) × (t2 − t0), the
// point projects inside the triangle iff it lies on the inner side of each edge,
//   ((t_j − t_i) × (p − t_i)) · n ≥ 0  for (i, j) = (0,1), (1,2), (2,0)  → P_T (the plane).
// Otherwise the closest point lies on the boundary (the triangle is convex and the squared distance is
// h² + |projection − x|²), so the answer is the nearest of the three point-edge sub-problems, mapped to
// the triangle's vertex or edge. Degenerate (collinear or zero-area) triangles, with
// |n|² ≤ kDegenerateTriangle · (longest edge)⁴, skip the plane and use the boundary only.
//
// Edge-edge. With a = ea1 − ea0, b = eb1 − eb0, w = eb0 − ea0 and n = a × b, the closest points of the
// lines, ea0 + s a and eb0 + t b, are
//   s = ((w × b) · n) / |n|²,   t = ((w × a) · n) / |n|²
// (cross-product forms, better conditioned than solving the 2×2 normal equations). If both lie in
// [0, 1] the edges' interiors are closest → EA_EB (the lines). Otherwise — and always when the edges are
// nearly parallel, |n|² ≤ kParallelEdges · |a|²|b|² — the squared distance, a convex quadratic on the
// parameter square, takes its minimum on the square's boundary: the nearest of the four point-edge
// sub-problems (ea0 and ea1 against edge b, eb0 and eb1 against edge a). Parallel and degenerate
// (zero-length) edges therefore always get an end-point case, whose distance is exact for them.
//
// Near a boundary between regions the candidates' distances agree to rounding; a tie goes to the first
// candidate, and either answer gives the same distance and gradient to rounding (d is C¹ there).
#include "affix/math/types.hpp"

namespace affix {

enum class PointEdgeDistanceType { P_E0, P_E1, P_E };
enum class PointTriangleDistanceType { P_T0, P_T1, P_T2, P_E0, P_E1, P_E2, P_T };
enum class EdgeEdgeDistanceType { EA0_EB0, EA0_EB1, EA1_EB0, EA1_EB1, EA_EB0, EA_EB1, EA0_EB, EA1_EB, EA_EB };

/// Triangles with |n|² ≤ this · (longest edge)⁴ (height/length below about 1e-7) count as degenerate.
inline constexpr double kDegenerateTriangle = 1e-14;
/// Edges with sin²(angle) = |a × b|² / (|a|²|b|²) ≤ this count as parallel.
inline constexpr double kParallelEdges = 1e-14;

PointEdgeDistanceType point_edge_distance_type(const Vec3& p, const Vec3& e0, const Vec3& e1);
PointTriangleDistanceType point_triangle_distance_type(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                       const Vec3& t2);
EdgeEdgeDistanceType edge_edge_distance_type(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                             const Vec3& eb1);

/// The enumerator's name ("P_E", "EA0_EB1", ...), for messages and test output.
const char* to_string(PointEdgeDistanceType type);
const char* to_string(PointTriangleDistanceType type);
const char* to_string(EdgeEdgeDistanceType type);

}  // namespace affix
