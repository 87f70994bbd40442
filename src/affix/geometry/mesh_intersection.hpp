#pragma once
// Do two placed solids overlap? A scene whose bodies intersect at t = 0 has no intersection-free
// starting point for the barrier solvers (Lan 2022 §3), so the loader refuses it (DESIGN §4, exit 2,
// naming the pair). Each body is a closed, outward-oriented mesh placed by its affine map
// x = A·x̄ + p (DESIGN §2).
//
// Two solids A and B intersect iff their surfaces meet or one contains the other:
//  (1) surfaces: some edge of one meets some triangle of the other (segment_triangle.hpp). Two
//      triangles that meet always do so along an edge of one of them: their common segment (or
//      polygon, when coplanar) ends on the triangles' boundaries.
//  (2) containment: with no surface contact, either B ⊂ A, A ⊂ B or they are disjoint, and one vertex
//      of each decides it by its winding number about the other (winding_number.hpp).
// Touching within a tiny relative tolerance (1e-12 of the coordinates' magnitude, well above the
// rounding of A·x̄ + p) counts as intersecting, so a box resting exactly on another is refused.
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// True when the solids bounded by `a` placed by (Aa, pa) and `b` placed by (Ab, pb) intersect or
/// touch. Both meshes must be closed and consistently oriented (find_mesh_defect passes); the maps
/// must be invertible (a mirror is fine). Cost: O(n) to place the meshes, then only the edges and
/// triangles whose boxes lie in the overlap of the two meshes' boxes are paired (the i-AABB of
/// Lan 2022 §4.2), through a uniform grid, so well-separated parts cost nothing.
bool meshes_intersect(const TriangleMesh& a, const Mat3& Aa, const Vec3& pa, const TriangleMesh& b, const Mat3& Ab,
                      const Vec3& pb);

/// The lexicographically smallest pair (i, j), i < j, of intersecting bodies among those for which
/// may_collide(i, j) holds (an empty std::function allows all), or nullopt. Body k is meshes[k] placed
/// by (A[k], p[k]). A sort-and-sweep along x over the bodies' world boxes picks the candidates, so
/// many separated bodies cost O(n log n). Throws std::invalid_argument when the three vectors differ
/// in length or a mesh pointer is null.
std::optional<std::pair<int, int>> first_intersecting_pair(const std::vector<const TriangleMesh*>& meshes,
                                                           const std::vector<Mat3>& A, const std::vector<Vec3>& p,
                                                           const std::function<bool(int, int)>& may_collide);

}  // namespace affix
