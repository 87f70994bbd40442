#pragma once
// A body's rest mesh laid out for drawing: three corners per triangle, each with its own normal, so that
// curved surfaces (spheres, capsules, tori) shade smoothly while box edges and cylinder rims stay sharp.
//
// Corner normal (crease-angle smoothing): the area-weighted sum Σ (e1 × e2) of the faces around the
// corner's vertex whose unit normal lies within `crease_deg` of the corner's own face normal.
// A pose x = A·x̄ + p maps a rest normal n̄ to n ∝ A⁻ᵀ·n̄ (normals are covectors; for a rotation,
// A⁻ᵀ = A), so affine strain shades correctly too.
#include <vector>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/model/body_state.hpp"

namespace affix {

struct DrawMesh {
  std::vector<Vec3> corners;  ///< rest positions, three per triangle, in the mesh's (outward) winding
  std::vector<Vec3> normals;  ///< rest unit normals, one per corner
};

DrawMesh make_draw_mesh(const TriangleMesh& mesh, double crease_deg = 50.0);

/// Whether `pose` maps meshes.json's coordinates (|x̄| ≤ 1e12, scene_meshes.hpp) into float range:
/// false for a diverged run's NaN or a runaway's 1e300, which float conversion and the rasteriser must
/// never see. Such a body is left out of the picture.
bool drawable(const BodyPose& pose);

/// World positions and unit normals of the corners for `pose` (drawable), appended as xyz floats
/// (OpenGL arrays).
void append_posed(const DrawMesh& mesh, const BodyPose& pose, std::vector<float>& positions,
                  std::vector<float>& normals);

}  // namespace affix
