#pragma once
// Squared distance between two segments (Li et al. 2020, "Incremental Potential Contact", §4):
//   d([ea0, ea1], [eb0, eb1]) = min over s, t ∈ [0, 1] of |ea0 + s a − eb0 − t b|²,
// evaluated as the sub-distance of the closest feature pair (edge_edge_distance_type, distance_type.hpp):
//     EA0_EB0, EA0_EB1, EA1_EB0, EA1_EB1   point-point between two end points
//     EA_EB0, EA_EB1                       point-line from eb0 / eb1 to the line of edge a
//     EA0_EB, EA1_EB                       point-line from ea0 / ea1 to the line of edge b
//     EA_EB                                line-line, (w · (a × b))² / |a × b|², w = eb0 − ea0
// Derivatives are on the stacked x = (ea0, ea1, eb0, eb1) ∈ R¹², each sub-distance's scattered into the
// vertices it involves. d is C¹ across type boundaries; ∇²d jumps there.
// Degenerate cases: parallel or zero-length edges are classified onto end-point cases, which are exact
// for them; near-parallel edges classified EA_EB have ill-conditioned derivatives, which IPC's
// mollifier (edge_edge_mollifier.hpp) suppresses in the barrier.
#include "affix/distance/distance_type.hpp"
#include "affix/distance/stencil_types.hpp"

namespace affix {

double edge_edge_distance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
double edge_edge_distance(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                          EdgeEdgeDistanceType type);

Vec12 edge_edge_distance_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
Vec12 edge_edge_distance_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                  EdgeEdgeDistanceType type);

Mat12 edge_edge_distance_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
Mat12 edge_edge_distance_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                 EdgeEdgeDistanceType type);

}  // namespace affix
