#pragma once
// Squared distance from a point to the plane of a triangle (Li et al. 2020, "Incremental Potential
// Contact", §4; the point-triangle case whose closest point is interior to the triangle):
//   d(p, t0, t1, t2) = (w · n)² / |n|²,   w = p − t0,  n = a × b,  a = t1 − t0,  b = t2 − t0.
// The numerator is the squared triple product s = w · (a × b); with N = s², D = |a × b|²:
//   ∇N = 2s∇s, ∇²N = 2∇s∇sᵀ + 2s∇²s, and ∇d, ∇²d by the quotient rule (derivative_helpers.hpp),
// computed in (w, a, b) = S x and mapped to the stacked x = (p, t0, t1, t2) by Sᵀ(·) and Sᵀ(·)S.
// s is evaluated with w's component along a removed (same value; keeps the rounding of a × b from
// being multiplied by the point's in-plane offset on thin triangles).
// The Hessian is not PSD in general.
// Degenerate case: a collinear or zero-area triangle (n = 0) has no plane; the functions assert
// |n| > 0. The point-triangle classification never selects the plane for a degenerate triangle.
#include "affix/distance/stencil_types.hpp"

namespace affix {

double point_plane_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
Vec12 point_plane_distance_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
Mat12 point_plane_distance_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);

}  // namespace affix
