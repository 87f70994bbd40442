#pragma once
// Squared distance between two points (Li et al. 2020, "Incremental Potential Contact", §4: IPC works
// with squared unsigned distances, which are smooth where the distance itself is not):
//   d(p0, p1) = |p0 − p1|²,
//   ∇d = 2 [u; −u]  with u = p0 − p1,
//   ∇²d = 2 [I −I; −I I]  (constant, PSD).
// Stacked variables x = (p0, p1). No degenerate case: d, ∇d and ∇²d are polynomials; at p0 = p1 the
// gradient is zero (a barrier on d is infinite there anyway).
#include "affix/distance/stencil_types.hpp"

namespace affix {

double point_point_distance(const Vec3& p0, const Vec3& p1);
Vec6 point_point_distance_gradient(const Vec3& p0, const Vec3& p1);
Mat6 point_point_distance_hessian(const Vec3& p0, const Vec3& p1);

}  // namespace affix
