#include "affix/viewer/mesh_groups.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace affix::viewer {

namespace {

/// FNV-1a over the raw vertex and triangle arrays: equal meshes hash equal.
std::uint64_t mesh_hash(const TriangleMesh& mesh) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  };
  for (const Vec3& v : mesh.vertices) mix(v.data(), 3 * sizeof(double));
  mix(mesh.faces.data(), mesh.faces.size() * sizeof(mesh.faces[0]));
  return h;
}

bool same_mesh(const TriangleMesh& a, const TriangleMesh& b) {
  return a.vertices.size() == b.vertices.size() && a.faces == b.faces &&
         std::equal(a.vertices.begin(), a.vertices.end(), b.vertices.begin(),
                    [](const Vec3& x, const Vec3& y) { return x == y; });
}

std::array<double, 6> mesh_bounds(const TriangleMesh& mesh) {
  if (mesh.vertices.empty()) return {0, 0, 0, 0, 0, 0};
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::array<double, 6> b{inf, inf, inf, -inf, -inf, -inf};
  for (const Vec3& v : mesh.vertices)
    for (int i = 0; i < 3; ++i) {
      b[i] = std::min(b[i], v[i]);
      b[3 + i] = std::max(b[3 + i], v[i]);
    }
  return b;
}

}  // namespace

std::size_t mesh_page_bytes(const TriangleMesh& mesh) {
  return mesh.vertices.size() * 3 * sizeof(float) + mesh.faces.size() * 3 * sizeof(std::uint32_t);
}

MeshGroups group_meshes(const std::vector<TriangleMesh>& meshes, const MeshLimits& limits) {
  // Group in body order; each group is found by hash, then confirmed by comparing the arrays.
  std::vector<MeshGroup> found;
  std::vector<int> body_found(meshes.size());
  std::unordered_multimap<std::uint64_t, int> by_hash;
  for (std::size_t b = 0; b < meshes.size(); ++b) {
    const std::uint64_t h = mesh_hash(meshes[b]);
    int group = -1;
    for (auto [it, end] = by_hash.equal_range(h); it != end; ++it)
      if (same_mesh(meshes[found[it->second].first_body], meshes[b])) group = it->second;
    if (group < 0) {
      group = static_cast<int>(found.size());
      found.push_back({static_cast<int>(b), 0, mesh_bounds(meshes[b]), false});
      by_hash.emplace(h, group);
    }
    ++found[group].bodies;
    body_found[b] = group;
  }

  // Most-shared first; embed while within both limits (a mesh too large alone becomes boxes).
  std::vector<int> order(found.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return found[a].bodies > found[b].bodies; });
  MeshGroups out;
  std::vector<int> new_index(found.size());
  std::size_t bytes = 0;
  std::size_t embedded = 0;
  for (int g : order) {
    MeshGroup group = found[g];
    const std::size_t size = mesh_page_bytes(meshes[group.first_body]);
    if (embedded < limits.max_groups && bytes + size <= limits.max_bytes) {
      group.embedded = true;
      bytes += size;
      ++embedded;
    }
    new_index[g] = static_cast<int>(out.groups.size());
    out.groups.push_back(group);
  }
  out.body_group.resize(meshes.size());
  for (std::size_t b = 0; b < meshes.size(); ++b) out.body_group[b] = new_index[body_found[b]];
  return out;
}

}  // namespace affix::viewer
