#pragma once
// Is a triangle mesh the boundary of a solid? The solvers and mass_properties assume so; a scene's
// meshes are checked here once, at load time, so that a bad file fails with a reason, not a wrong
// volume or a crash mid-simulation.
#include <optional>
#include <string>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// nullopt when `mesh` is a valid solid, else one sentence naming the first defect, checked in this
/// order (each check assumes the earlier ones passed):
///  1. no triangles;
///  2. a vertex index out of range;
///  3. a non-finite vertex coordinate;
///  4. a degenerate triangle (a repeated vertex, or zero area);
///  5. not manifold: an edge shared by more than two triangles;
///  6. not closed: edges with only one triangle (the message gives their number);
///  7. inconsistently oriented: an edge traversed twice in the same direction;
///  8. not manifold at a vertex: separate fans of triangles meet only at that vertex;
///  9. inward-facing or flat: signed volume ≤ 0.
/// Self-intersections are not detected.
std::optional<std::string> find_mesh_defect(const TriangleMesh& mesh);

}  // namespace affix
