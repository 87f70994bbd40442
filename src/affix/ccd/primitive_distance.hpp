#pragma once
// Unsigned squared distances between the primitives that additive CCD steps along (point, edge =
// closed segment, triangle = closed solid triangle). They are private to ccd/: the value only, with no
// derivatives and no distance-type classification (distance/ has the differentiable versions). What CCD
// needs from them is robustness, not speed: never a large overestimate, whatever the conditioning, since
// an overestimated distance lets ACCD step too far.
//
// Each one is the closest-feature minimum over candidates that are all upper bounds: the boundary ones
// (point–segment distances, exact) and the interior one (the orthogonal projection, kept only when it
// lands inside the primitive), evaluated as the distance between an explicit pair of points however
// ill-conditioned the projection. So the result never undershoots the true distance by more than
// rounding and overshoots it only where the geometry is degenerate at the level of rounding: parallel
// and zero-length edges fall back to the boundary candidates (exact there), nearly parallel edges stay
// accurate (see edge_edge_distance_squared), and a sliver triangle can be overestimated by at most its
// width.
#include "affix/math/types.hpp"

namespace affix::ccd_detail {

/// |p − q|².
double point_point_distance_squared(const Vec3& p, const Vec3& q);

/// Squared distance from p to the closed segment [e0, e1]; a zero-length segment is the point e0.
double point_edge_distance_squared(const Vec3& p, const Vec3& e0, const Vec3& e1);

/// Squared distance from p to the closed triangle (t0, t1, t2); a degenerate triangle is the union of
/// its edges.
double point_triangle_distance_squared(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);

/// Squared distance between the closed segments [a0, a1] and [b0, b1] (parallel ones included).
double edge_edge_distance_squared(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1);

}  // namespace affix::ccd_detail
