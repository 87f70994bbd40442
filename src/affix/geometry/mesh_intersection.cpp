#include "affix/geometry/mesh_intersection.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "affix/geometry/aabb.hpp"
#include "affix/geometry/segment_triangle.hpp"
#include "affix/geometry/sweep_and_prune.hpp"
#include "affix/geometry/uniform_grid.hpp"
#include "affix/geometry/winding_number.hpp"

namespace affix {

namespace {

/// Touching tolerance relative to the largest coordinate magnitude: rounding of A·x̄ + p is a few
/// 1e-16 of it, and anything below 1e-12 of the scene's size is contact for all practical purposes.
constexpr double kRelativeTolerance = 1e-12;

/// A mesh in world coordinates. The edges are built only when a narrow phase needs them.
struct PlacedMesh {
  const TriangleMesh* mesh = nullptr;
  std::vector<Vec3> x;
  Aabb box;
  std::vector<std::array<int, 2>> edges;
  double tol = 0.0;  ///< kRelativeTolerance · max |coordinate|
};

PlacedMesh place(const TriangleMesh& mesh, const Mat3& A, const Vec3& p) {
  PlacedMesh placed{&mesh, {}, {}, {}, 0.0};
  placed.x.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) {
    placed.x.push_back(A * v + p);
    placed.box.extend(placed.x.back());
  }
  if (!placed.box.is_empty()) {
    placed.tol =
        kRelativeTolerance * std::max(placed.box.min.cwiseAbs().maxCoeff(), placed.box.max.cwiseAbs().maxCoeff());
  }
  return placed;
}

/// Each undirected edge once. On a closed, consistently oriented surface every edge is traversed by
/// exactly two triangles in opposite directions, so keeping the directed edges (a, b) with a < b picks
/// each one once in O(n), without mesh_edges' sort (which dominated the cost on large meshes).
const std::vector<std::array<int, 2>>& edges_of(PlacedMesh& m) {
  if (m.edges.empty()) {
    m.edges.reserve(m.mesh->faces.size() * 3 / 2);
    for (const auto& f : m.mesh->faces) {
      for (int k = 0; k < 3; ++k) {
        if (f[k] < f[(k + 1) % 3]) {
          m.edges.push_back({f[k], f[(k + 1) % 3]});
        }
      }
    }
  }
  return m.edges;
}

Aabb inflated(Aabb box, double margin) {
  box.inflate(margin);
  return box;
}

/// inner ⊆ outer, componentwise on the bounds.
bool box_contains(const Aabb& outer, const Aabb& inner) {
  return (outer.min.array() <= inner.min.array()).all() && (inner.max.array() <= outer.max.array()).all();
}

/// Some edge of `e` meets some triangle of `t` within tol. Only primitives whose boxes meet `region`
/// (the overlap of the two meshes' boxes) can touch the other mesh, so only those are paired: the
/// triangles go into a uniform grid, and each edge asks it for the triangles near its box.
bool an_edge_meets_a_triangle(PlacedMesh& e, PlacedMesh& t, const Aabb& region, double tol) {
  std::vector<Aabb> triangle_boxes(t.mesh->faces.size());
  for (std::size_t f = 0; f < t.mesh->faces.size(); ++f) {
    for (int v : t.mesh->faces[f]) {
      triangle_boxes[f].extend(t.x[v]);
    }
    triangle_boxes[f].inflate(tol);  // so that a box test never culls a pair that touches within tol
  }
  const UniformGrid grid(triangle_boxes, region);
  for (const auto& [i, j] : edges_of(e)) {
    Aabb edge_box;
    edge_box.extend(e.x[i]);
    edge_box.extend(e.x[j]);
    if (!edge_box.intersects(region)) {
      continue;
    }
    const bool hit = grid.for_each_intersecting(edge_box, [&](int f) {
      const auto& [u, v, w] = t.mesh->faces[f];
      return segment_meets_triangle(e.x[i], e.x[j], t.x[u], t.x[v], t.x[w], tol);
    });
    if (hit) {
      return true;
    }
  }
  return false;
}

/// `inner` inside `outer`, assuming their surfaces do not meet: then every point of inner is on the
/// same side, so one vertex decides. A box test first: inner ⊂ outer needs box(inner) ⊆ box(outer).
bool contains(const PlacedMesh& outer, const PlacedMesh& inner, double tol) {
  return box_contains(inflated(outer.box, tol), inner.box) &&
         inside_closed_surface(outer.x, outer.mesh->faces, inner.x.front());
}

bool placed_meshes_intersect(PlacedMesh& a, PlacedMesh& b) {
  const double tol = std::max(a.tol, b.tol);
  // The region where contact can happen: the overlap of the two boxes, widened by tol.
  Aabb region = inflated(a.box, tol);
  const Aabb grown_b = inflated(b.box, tol);
  region.min = region.min.cwiseMax(grown_b.min);
  region.max = region.max.cwiseMin(grown_b.max);
  if (region.is_empty()) {
    return false;
  }
  return an_edge_meets_a_triangle(a, b, region, tol) || an_edge_meets_a_triangle(b, a, region, tol) ||
         contains(a, b, tol) || contains(b, a, tol);
}

}  // namespace

bool meshes_intersect(const TriangleMesh& a, const Mat3& Aa, const Vec3& pa, const TriangleMesh& b, const Mat3& Ab,
                      const Vec3& pb) {
  if (a.vertices.empty() || b.vertices.empty()) {
    return false;
  }
  PlacedMesh placed_a = place(a, Aa, pa), placed_b = place(b, Ab, pb);
  return placed_meshes_intersect(placed_a, placed_b);
}

std::optional<std::pair<int, int>> first_intersecting_pair(const std::vector<const TriangleMesh*>& meshes,
                                                           const std::vector<Mat3>& A, const std::vector<Vec3>& p,
                                                           const std::function<bool(int, int)>& may_collide) {
  if (A.size() != meshes.size() || p.size() != meshes.size()) {
    throw std::invalid_argument("first_intersecting_pair: meshes, A and p must have the same length");
  }
  // Only the boxes are kept for every body; a body's vertices are placed when a pair needs them (a
  // chain of 10⁶ capsules would otherwise hold 2 GB of world vertices, for a handful of candidates).
  std::vector<Aabb> boxes;
  boxes.reserve(meshes.size());
  for (std::size_t k = 0; k < meshes.size(); ++k) {
    if (meshes[k] == nullptr) {
      throw std::invalid_argument("first_intersecting_pair: mesh " + std::to_string(k) + " is null");
    }
    // Widened by the body's own tolerance, as place() computes both: a pair's tolerance is the
    // larger of the two, so boxes within it of each other still overlap here.
    Aabb box;
    for (const Vec3& v : meshes[k]->vertices) box.extend(A[k] * v + p[k]);
    const double tol = box.is_empty() ? 0.0
                                      : kRelativeTolerance * std::max(box.min.cwiseAbs().maxCoeff(),
                                                                      box.max.cwiseAbs().maxCoeff());
    boxes.push_back(inflated(box, tol));
  }
  // Broad phase: every allowed pair whose boxes overlap, then narrow phase in lexicographic order so
  // that the reported pair does not depend on the sweep's visiting order.
  std::vector<std::pair<int, int>> candidates;
  for_each_overlapping_pair(std::span<const Aabb>(boxes), 0, [&](int i, int j) {
    if (!may_collide || may_collide(i, j)) {
      candidates.emplace_back(i, j);
    }
    return false;
  });
  std::sort(candidates.begin(), candidates.end());
  std::unordered_map<int, PlacedMesh> placed;  // the candidates' bodies, each placed once
  const auto placed_body = [&](int k) -> PlacedMesh& {
    auto it = placed.find(k);
    if (it == placed.end()) it = placed.emplace(k, place(*meshes[k], A[k], p[k])).first;
    return it->second;
  };
  for (const auto& [i, j] : candidates) {
    PlacedMesh& a = placed_body(i);  // (references into an unordered_map survive insertions)
    if (placed_meshes_intersect(a, placed_body(j))) {
      return std::pair{i, j};
    }
  }
  return std::nullopt;
}

}  // namespace affix
