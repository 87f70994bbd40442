#pragma once
// A closed triangle surface in a body's rest frame: the only geometry the solvers see.
#include <array>
#include <vector>

#include "affix/math/types.hpp"

namespace affix {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> faces;  ///< counter-clockwise seen from outside (outward normals)
};

/// Unique undirected edges (i < j), sorted.
std::vector<std::array<int, 2>> mesh_edges(const TriangleMesh& mesh);

}  // namespace affix
