#include "affix/geometry/mesh_validation.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "affix/geometry/aabb.hpp"
#include "affix/geometry/mass_properties.hpp"

namespace affix {

namespace {

using Defect = std::optional<std::string>;

/// Concatenates the streamable arguments into one message.
template <typename... Parts>
std::string message(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

std::string edge_name(int a, int b) {
  return message("the edge between vertices ", a, " and ", b);
}

Defect find_bad_index(const TriangleMesh& mesh) {
  const auto n = static_cast<long long>(mesh.vertices.size());
  for (std::size_t t = 0; t < mesh.faces.size(); ++t) {
    for (int v : mesh.faces[t]) {
      if (v < 0 || v >= n) {
        return message("triangle ", t, " refers to vertex ", v, ", but the mesh has ", n, " vertices");
      }
    }
  }
  return std::nullopt;
}

Defect find_non_finite_vertex(const TriangleMesh& mesh) {
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    if (!mesh.vertices[v].allFinite()) {
      return message("vertex ", v, " has a non-finite coordinate");
    }
  }
  return std::nullopt;
}

Defect find_degenerate_triangle(const TriangleMesh& mesh) {
  // Zero area relative to the triangle's own size: |e₁ × e₂| ≤ ε ℓ², ℓ the longest edge, which is
  // sin(angle) ≤ ε for the sharpest corner; ε = 1e-12 only catches collinear corners up to rounding.
  constexpr double kRelativeArea = 1e-12;
  for (std::size_t t = 0; t < mesh.faces.size(); ++t) {
    const auto& [i, j, k] = mesh.faces[t];
    if (i == j || j == k || k == i) {
      return message("triangle ", t, " is degenerate: it repeats a vertex");
    }
    const Vec3 &a = mesh.vertices[i], &b = mesh.vertices[j], &c = mesh.vertices[k];
    const double longest = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    if ((b - a).cross(c - a).norm() <= kRelativeArea * longest) {
      return message("triangle ", t, " is degenerate: its area is zero");
    }
  }
  return std::nullopt;
}

/// One triangle's use of an undirected edge (low < high), and whether it runs low → high.
struct EdgeUse {
  int low, high;
  bool forward;
  int triangle;
  bool operator<(const EdgeUse& o) const {
    return std::tie(low, high, triangle) < std::tie(o.low, o.high, o.triangle);
  }
};

/// Checks 5–7 on the edges: in a closed, consistently oriented manifold every undirected edge is
/// used by exactly two triangles, once in each direction.
Defect find_edge_defect(const TriangleMesh& mesh) {
  std::vector<EdgeUse> uses;
  uses.reserve(3 * mesh.faces.size());
  for (std::size_t t = 0; t < mesh.faces.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.faces[t][k], b = mesh.faces[t][(k + 1) % 3];
      uses.push_back({std::min(a, b), std::max(a, b), a < b, static_cast<int>(t)});
    }
  }
  std::sort(uses.begin(), uses.end());

  std::size_t boundary_edges = 0;
  Defect first_boundary, first_misoriented;
  for (std::size_t begin = 0, end = 0; begin < uses.size(); begin = end) {
    while (end < uses.size() && uses[end].low == uses[begin].low && uses[end].high == uses[begin].high) {
      ++end;
    }
    const EdgeUse& e = uses[begin];
    const std::size_t count = end - begin;
    if (count > 2) {
      return message("the mesh is not manifold: ", edge_name(e.low, e.high), " is shared by ", count,
                     " triangles");
    }
    if (count == 1) {
      if (boundary_edges++ == 0) first_boundary = edge_name(e.low, e.high);
    } else if (e.forward == uses[begin + 1].forward && !first_misoriented) {
      first_misoriented = message("the mesh is inconsistently oriented: triangles ", e.triangle, " and ",
                                  uses[begin + 1].triangle, " traverse ", edge_name(e.low, e.high),
                                  " in the same direction");
    }
  }
  if (boundary_edges > 0) {
    return message("the mesh is not closed: it has ", boundary_edges, " boundary edge",
                   boundary_edges == 1 ? "" : "s", " used by only one triangle (", *first_boundary,
                   " is one)");
  }
  return first_misoriented;
}

/// Check 8. Around a manifold vertex v the triangles form one fan: the link edges b → c of the
/// triangles (v, b, c) (rotated to start at v) chain into a single cycle. Two solids that touch at a
/// vertex pass the edge checks but give two cycles.
Defect find_non_manifold_vertex(const TriangleMesh& mesh) {
  std::vector<std::vector<std::array<int, 2>>> link(mesh.vertices.size());
  for (const auto& f : mesh.faces) {
    for (int k = 0; k < 3; ++k) {
      link[f[k]].push_back({f[(k + 1) % 3], f[(k + 2) % 3]});
    }
  }
  for (std::size_t v = 0; v < link.size(); ++v) {
    auto& edges = link[v];
    if (edges.empty()) continue;  // an unused vertex is harmless
    std::sort(edges.begin(), edges.end());
    // After the edge checks each link vertex starts exactly one link edge: follow the cycle.
    std::size_t length = 0;
    int at = edges.front()[0];
    do {
      const auto next = std::lower_bound(edges.begin(), edges.end(), std::array<int, 2>{at, -1});
      if (next == edges.end() || (*next)[0] != at) break;  // cannot happen after the edge checks
      at = (*next)[1];
      ++length;
    } while (at != edges.front()[0] && length <= edges.size());
    if (length != edges.size()) {
      return message("the mesh is not manifold at vertex ", v, ": separate fans of triangles meet there");
    }
  }
  return std::nullopt;
}

/// Check 9. Outward triangles give a positive volume; "zero" is relative to the bounding box.
Defect find_bad_volume(const TriangleMesh& mesh) {
  const double volume = mass_properties(mesh).volume;
  const double size = aabb_of(mesh.vertices).diagonal().norm();
  if (std::abs(volume) <= 1e-12 * size * size * size) {
    return message("the mesh encloses no volume (signed volume ", volume, ")");
  }
  if (volume < 0.0) {
    return message("the mesh is inward-facing: its signed volume is ", volume,
                   " (triangles must be counter-clockwise seen from outside)");
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> find_mesh_defect(const TriangleMesh& mesh) {
  if (mesh.faces.empty()) {
    return "the mesh has no triangles";
  }
  for (auto check : {find_bad_index, find_non_finite_vertex, find_degenerate_triangle, find_edge_defect,
                     find_non_manifold_vertex, find_bad_volume}) {
    if (Defect defect = check(mesh)) {
      return defect;
    }
  }
  return std::nullopt;
}

}  // namespace affix
