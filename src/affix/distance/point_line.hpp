#pragma once
// Squared distance from a point to the infinite line through e0 and e1 (Li et al. 2020, "Incremental
// Potential Contact", §4; used by the point-edge and edge-edge cases whose closest point is interior
// to an edge):
//   d(p, e0, e1) = |r × e|² / |e|²,   r = p − e0,  e = e1 − e0.
// With N = |r × e|² and D = |e|² the derivatives follow from the quotient rule
//   ∇d = (∇N − d ∇D)/D,  ∇²d = (∇²N − d ∇²D − ∇d ∇Dᵀ − ∇D ∇dᵀ)/D,
// where ∇N, ∇²N are those of the cross-product squared norm in (r, e) and ∇D = 2(0, e), ∇²D = 2 diag(0, I);
// (r, e) = S x is linear in the stacked x = (p, e0, e1), so ∇ₓ = Sᵀ∇ and ∇²ₓ = Sᵀ∇²S
// (derivative_helpers.hpp). The Hessian is not PSD in general.
// Degenerate case: e0 = e1 (D = 0) has no line; the functions assert D > 0. The point-edge
// classification never selects the line for a zero-length edge.
#include "affix/distance/stencil_types.hpp"

namespace affix {

double point_line_distance(const Vec3& p, const Vec3& e0, const Vec3& e1);
Vec9 point_line_distance_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1);
Mat9 point_line_distance_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1);

}  // namespace affix
