#include "affix/import/map_mesh.hpp"

#include "affix/geometry/mesh_file.hpp"
#include "affix/geometry/mesh_validation.hpp"

namespace affix {
namespace {

/// The convex hull MuJoCo's compiler stored with the mesh (user_mesh.cc, MakeGraph):
/// mesh_graph = [numvert, numface, vert_edgeadr[numvert], vert_globalid[numvert],
///               edge_localid[numvert + 3 numface], face_globalid[3 numface]],
/// face_globalid indexing the mesh's own vertices. qhull does not promise an orientation, so each
/// face is turned to face away from the hull's vertex centroid (a convex hull's interior point).
std::vector<std::array<int, 3>> hull_triangles(const mjModel& m, int mesh_id, const std::vector<Vec3>& vertices) {
  std::vector<std::array<int, 3>> out;
  const int adr = m.mesh_graphadr[mesh_id];
  if (adr < 0) return out;
  const int* graph = m.mesh_graph + adr;
  const int numvert = graph[0], numface = graph[1];
  const int* vert_globalid = graph + 2 + numvert;
  const int* face_globalid = graph + 2 + 3 * numvert + 3 * numface;
  Vec3 centre = Vec3::Zero();
  for (int k = 0; k < numvert; ++k) centre += vertices[static_cast<std::size_t>(vert_globalid[k])];
  centre /= static_cast<double>(numvert);
  for (int f = 0; f < numface; ++f) {
    std::array<int, 3> t{face_globalid[3 * f], face_globalid[3 * f + 1], face_globalid[3 * f + 2]};
    const Vec3 &a = vertices[static_cast<std::size_t>(t[0])], &b = vertices[static_cast<std::size_t>(t[1])],
               &c = vertices[static_cast<std::size_t>(t[2])];
    if ((b - a).cross(c - a).dot((a + b + c) / 3.0 - centre) < 0.0) std::swap(t[1], t[2]);
    out.push_back(t);
  }
  return out;
}

}  // namespace

MeshShape mujoco_mesh(const mjModel& m, int mesh_id, Unmapped& unmapped) {
  const int vadr = m.mesh_vertadr[mesh_id], nv = m.mesh_vertnum[mesh_id];
  const int fadr = m.mesh_faceadr[mesh_id], nf = m.mesh_facenum[mesh_id];
  std::vector<Vec3> vertices;
  vertices.reserve(static_cast<std::size_t>(nv));
  for (int v = vadr; v < vadr + nv; ++v) {  // MuJoCo keeps mesh vertices in single precision
    vertices.emplace_back(m.mesh_vert[3 * v], m.mesh_vert[3 * v + 1], m.mesh_vert[3 * v + 2]);
  }
  std::vector<std::array<int, 3>> triangles;
  triangles.reserve(static_cast<std::size_t>(nf));
  for (int f = fadr; f < fadr + nf; ++f) {
    triangles.push_back({m.mesh_face[3 * f], m.mesh_face[3 * f + 1], m.mesh_face[3 * f + 2]});
  }
  // Welded: MuJoCo repeats a corner per face when the file gives it per-face normals or texture
  // coordinates (an OBJ's v/vt/vn), which would leave the surface open along every edge.
  TriangleMesh surface = inline_mesh(vertices, triangles);
  if (find_mesh_defect(surface)) {
    std::vector<std::array<int, 3>> hull = hull_triangles(m, mesh_id, vertices);
    if (!hull.empty()) {  // else keep the surface: the scene check names its defect
      surface = inline_mesh(vertices, hull);
      unmapped.add("mesh geoms replaced by their convex hull (their own surface is not a closed solid)");
    }
  }
  MeshShape mesh;
  mesh.vertices = std::move(surface.vertices);
  mesh.triangles = std::move(surface.faces);
  return mesh;
}

}  // namespace affix
