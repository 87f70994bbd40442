#include "affix/geometry/mesh_file.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

#include "affix/geometry/assimp_loader.hpp"
#include "affix/geometry/obj_loader.hpp"

namespace affix {
namespace {

/// Vertices at identical scaled positions become one (STL repeats every corner per facet), unused
/// ones vanish; a mirroring scale swaps two corners of each face so that outward stays outward.
TriangleMesh welded(const std::vector<Vec3>& points, const std::vector<std::array<int, 3>>& triangles,
                    const Vec3& scale) {
  if (!scale.allFinite() || (scale.array() == 0.0).any()) {
    throw std::invalid_argument("a mesh scale must be finite and non-zero");
  }
  TriangleMesh mesh;
  std::map<std::array<double, 3>, int> index;
  std::vector<int> remap(points.size(), -1);
  const auto vertex = [&](int i) {
    int& r = remap[static_cast<std::size_t>(i)];
    if (r < 0) {
      const Vec3 p = points[static_cast<std::size_t>(i)].cwiseProduct(scale);
      const auto [it, inserted] = index.try_emplace({p.x(), p.y(), p.z()}, static_cast<int>(mesh.vertices.size()));
      if (inserted) mesh.vertices.push_back(p);
      r = it->second;
    }
    return r;
  };
  const bool mirrored = scale.prod() < 0.0;
  mesh.faces.reserve(triangles.size());
  for (const auto& [a, b, c] : triangles) {
    const int i = vertex(a), j = vertex(b), k = vertex(c);
    mesh.faces.push_back(mirrored ? std::array<int, 3>{i, k, j} : std::array<int, 3>{i, j, k});
  }
  return mesh;
}

}  // namespace

bool is_assimp_mesh(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext != ".obj";
}

TriangleMesh load_mesh_file(const std::filesystem::path& file, const Vec3& scale) {
  if (!is_assimp_mesh(file)) return load_obj(file, scale);
  if (!scale.allFinite() || (scale.array() == 0.0).any()) {
    throw std::invalid_argument("a mesh scale must be finite and non-zero");
  }
  const std::vector<Vec3> corners = load_assimp_triangles(file);
  std::vector<std::array<int, 3>> triangles(corners.size() / 3);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const int i = static_cast<int>(3 * t);
    triangles[t] = {i, i + 1, i + 2};
  }
  return welded(corners, triangles, scale);
}

TriangleMesh inline_mesh(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                         const Vec3& scale) {
  return welded(vertices, triangles, scale);
}

}  // namespace affix
