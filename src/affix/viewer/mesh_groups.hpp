#pragma once
// Bodies grouped by identical rest mesh (same vertex and triangle arrays), so that the page draws each
// group as one THREE.InstancedMesh: a hundred thousand copies of a few primitives are a few draw calls.
// When there are too many distinct meshes (more groups than draw calls we accept, or more mesh data
// than the page should carry), the groups used by the fewest bodies are not embedded: the page draws
// those bodies as their rest-frame bounding boxes, all in one more instanced draw.
#include <array>
#include <cstddef>
#include <vector>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix::viewer {

struct MeshGroup {
  int first_body = 0;                ///< the body whose mesh represents the group
  int bodies = 0;                    ///< how many bodies share it
  std::array<double, 6> bounds{};    ///< rest-frame box: min x, y, z, max x, y, z
  bool embedded = false;             ///< its triangles go into the page; else its bodies are boxes
};

struct MeshGroups {
  std::vector<MeshGroup> groups;     ///< most-shared first (ties: by first body)
  std::vector<int> body_group;       ///< per body, its index into groups
};

struct MeshLimits {
  std::size_t max_groups = 256;             ///< instanced draws for real meshes
  std::size_t max_bytes = 16'000'000;       ///< float32 vertices + uint32 triangles, before base64
};

/// Bytes a mesh takes in the page: 12 per vertex, 12 per triangle.
std::size_t mesh_page_bytes(const TriangleMesh& mesh);

MeshGroups group_meshes(const std::vector<TriangleMesh>& meshes, const MeshLimits& limits);

}  // namespace affix::viewer
