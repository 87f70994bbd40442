#pragma once
// MuJoCo mesh geoms as affix inline meshes. MuJoCo's compiler has already read the file (STL, OBJ,
// MSH), applied the asset's `scale`, and moved the vertices into the mesh's own inertial frame (centre
// of volume at the origin, principal axes along x, y, z), compensating in the geom's pos and quat; so
// mesh_vert placed by geom_pos, geom_quat is where MuJoCo has the surface.
#include "affix/import/mujoco_model.hpp"
#include "affix/import/unmapped.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// Mesh `mesh_id` of `m` in its compiled frame: its own triangles when they bound a solid (closed,
/// manifold, outward), else its convex hull from mesh_graph — the surface MuJoCo collides with anyway
/// — counted in `unmapped` as a substitution.
MeshShape mujoco_mesh(const mjModel& m, int mesh_id, Unmapped& unmapped);

}  // namespace affix
