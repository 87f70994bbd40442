#pragma once
// Squared distance between the infinite lines through (ea0, ea1) and (eb0, eb1) (Li et al. 2020,
// "Incremental Potential Contact", §4; the edge-edge case whose closest points are interior to both
// edges):
//   d = (w · n)² / |n|²,   w = eb0 − ea0,  n = a × b,  a = ea1 − ea0,  b = eb1 − eb0,
// i.e. the squared length of w projected on the common normal. Same algebra as point-plane: with the
// triple product s = w · (a × b), N = s², D = |a × b|², ∇d and ∇²d by the quotient rule in (w, a, b) = S x
// (derivative_helpers.hpp), mapped to the stacked x = (ea0, ea1, eb0, eb1). s is evaluated with w's
// component along a removed: the same value, but accurate when the lines are nearly parallel and w is
// much longer than the distance.
// Degenerate case: parallel lines (n = 0) have no unique common normal; the functions assert |n| > 0.
// Near it d, and even more its derivatives (∇²d ~ 1/|n|²), are ill-conditioned: the edge-edge
// classification sends nearly parallel edges to the point-edge cases instead, and IPC multiplies the
// edge-edge barrier by a mollifier that vanishes as n → 0 (edge_edge_mollifier.hpp).
#include "affix/distance/stencil_types.hpp"

namespace affix {

double line_line_distance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
Vec12 line_line_distance_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
Mat12 line_line_distance_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);

}  // namespace affix
