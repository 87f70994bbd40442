#pragma once
// The mollifier for nearly parallel edges (Li et al. 2020, "Incremental Potential Contact", §4.3
// "Parallel edge-edge"). As two edges turn parallel their distance stays C¹ only through a change of
// closest-feature type, and the line-line derivatives blow up (∇²d ~ 1/|a × b|²); IPC multiplies the
// edge-edge barrier by a factor m that goes to zero with the edges' cross product:
//   x = e_x(ea0, ea1, eb0, eb1) = |a × b|²,   a = ea1 − ea0,  b = eb1 − eb0,
//   ε_x = 1e-3 · |ā|² · |b̄|²    (ā, b̄ the edges at rest: x < ε_x means sin²θ < 1e-3 for unstretched edges),
//   m(x) = −x²/ε_x² + 2x/ε_x  for x < ε_x,   1 otherwise,
//   m'(x) = 2(1 − x/ε_x)/ε_x,  m''(x) = −2/ε_x²  (below ε_x; 0 above).
// m is C¹ at ε_x (m = 1, m' = 0 from both sides) and m(0) = 0. Derivatives in the stacked
// x = (ea0, ea1, eb0, eb1): ∇m = m'∇e_x, ∇²m = m''∇e_x∇e_xᵀ + m'∇²e_x, with ∇e_x, ∇²e_x those of the
// cross-product squared norm (derivative_helpers.hpp) mapped through (a, b) = S x.
// Degenerate case: ε_x must be positive (edges of non-zero rest length); asserted.
#include "affix/distance/stencil_types.hpp"

namespace affix {

/// e_x = |(ea1 − ea0) × (eb1 − eb0)|² and its derivatives.
double edge_edge_cross_squarednorm(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
Vec12 edge_edge_cross_squarednorm_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
Mat12 edge_edge_cross_squarednorm_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);

/// ε_x = 1e-3 · |ea0 − ea1|² · |eb0 − eb1|² from the rest positions.
double edge_edge_mollifier_threshold(const Vec3& ea0_rest, const Vec3& ea1_rest, const Vec3& eb0_rest,
                                     const Vec3& eb1_rest);

/// The scalar mollifier m(x) and its first and second derivatives in x.
double edge_edge_mollifier(double x, double eps_x);
double edge_edge_mollifier_derivative(double x, double eps_x);
double edge_edge_mollifier_second_derivative(double x, double eps_x);

/// m(e_x(ea0, ea1, eb0, eb1)) and its derivatives in the stacked positions.
double edge_edge_mollifier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, double eps_x);
Vec12 edge_edge_mollifier_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                   double eps_x);
Mat12 edge_edge_mollifier_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                  double eps_x);

}  // namespace affix
