#pragma once
// Triangle meshes of the primitive shapes (DESIGN §3): closed, manifold, outward-oriented, centred on
// the origin of the body's rest frame. Every vertex lies on the true surface, so the meshes are
// inscribed: volumes approach the smooth shape's from below as the resolution grows.
//
// All functions throw std::invalid_argument when a dimension is not a positive finite number or a
// resolution is too small to make a solid.
#include <cstdint>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// Box with full edge lengths `size`, each face a `segments_per_edge`² grid of squares split in two
/// triangles. Grid vertices on edges and corners are shared between faces. segments_per_edge ≥ 1.
TriangleMesh make_box(const Vec3& size, int segments_per_edge = 1);

/// UV sphere: `segments` meridians (≥ 3) and max(2, segments/2) latitude bands, one vertex at each pole.
TriangleMesh make_sphere(double radius, int segments);

/// Capsule along z: a cylinder of `length` (≥ 0, excluding the caps) closed by two hemispheres, each
/// with max(1, segments/4) latitude bands so that the facets stay roughly square. segments ≥ 3.
TriangleMesh make_capsule(double radius, double length, int segments);

/// Cylinder along z from −length/2 to +length/2; each cap is a fan around a centre vertex. segments ≥ 3.
TriangleMesh make_cylinder(double radius, double length, int segments);

/// Torus in the xy-plane around the z axis: `segments` (≥ 3) around the major circle, max(3, segments/2)
/// around the tube. Requires major > minor > 0 (otherwise the tube intersects itself).
TriangleMesh make_torus(double major, double minor, int segments);

/// The number of triangles each function above makes, from its formula, without meshing: so that a
/// resolution can be refused before anything huge is allocated. Exact for every valid argument (the box
/// up to 10⁸ segments per edge, the others for any int).
std::int64_t box_triangle_count(std::int64_t segments_per_edge);
std::int64_t sphere_triangle_count(std::int64_t segments);
std::int64_t capsule_triangle_count(double length, std::int64_t segments);
std::int64_t cylinder_triangle_count(std::int64_t segments);
std::int64_t torus_triangle_count(std::int64_t segments);

}  // namespace affix
