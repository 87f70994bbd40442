#include "affix/geometry/triangle_mesh.hpp"

#include <algorithm>

namespace affix {

std::vector<std::array<int, 2>> mesh_edges(const TriangleMesh& mesh) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(mesh.faces.size() * 3);
  for (const auto& f : mesh.faces) {
    for (int k = 0; k < 3; ++k) {
      const int a = f[k], b = f[(k + 1) % 3];
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace affix
