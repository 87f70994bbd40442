#include "affix/solvers/rigid/convex_pieces.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <unordered_map>

namespace affix {
namespace {

/// One connected component of a mesh: its vertices (indices into the mesh) and faces.
struct Component {
  std::vector<int> vertices;
  std::vector<int> faces;
  bool folds = false;  ///< some edge of it is concave
};

std::vector<Component> components(const TriangleMesh& mesh) {
  std::vector<int> parent(mesh.vertices.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& f : mesh.faces)
    for (int k = 1; k < 3; ++k) {
      const int a = root(f[0]), b = root(f[k]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<Component> out;
  std::vector<int> index(mesh.vertices.size(), -1);  // by root
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
    int& c = index[root(static_cast<int>(v))];
    if (c < 0) {
      c = static_cast<int>(out.size());
      out.emplace_back();
    }
    out[c].vertices.push_back(static_cast<int>(v));
  }
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) out[index[root(mesh.faces[f][0])]].faces.push_back(static_cast<int>(f));
  return out;
}

/// Marks the components that fold inwards: across some edge, the far vertex of one face lies outside
/// the plane of the other (a closed surface convex at every edge bounds a convex solid, so this finds
/// every concave one; tolerance 1e-9 of the mesh's size).
void mark_folds(const TriangleMesh& mesh, double size, std::vector<Component>& parts) {
  const double tol = 1e-9 * size;
  std::unordered_map<std::uint64_t, int> face_of_edge;  // directed edge (a, b) → its face
  const auto key = [](int a, int b) { return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b); };
  for (std::size_t f = 0; f < mesh.faces.size(); ++f)
    for (int k = 0; k < 3; ++k) face_of_edge[key(mesh.faces[f][k], mesh.faces[f][(k + 1) % 3])] = static_cast<int>(f);
  for (Component& part : parts)
    for (int f = 0; f < static_cast<int>(part.faces.size()) && !part.folds; ++f) {
      const auto& F = mesh.faces[part.faces[f]];
      const Vec3 &a = mesh.vertices[F[0]], &b = mesh.vertices[F[1]], &c = mesh.vertices[F[2]];
      const Vec3 normal = (b - a).cross(c - a).normalized();
      for (int k = 0; k < 3 && !part.folds; ++k) {
        const auto across = face_of_edge.find(key(F[(k + 1) % 3], F[k]));  // the neighbour walks it back
        if (across == face_of_edge.end()) continue;
        for (const int v : mesh.faces[across->second]) part.folds = part.folds || normal.dot(mesh.vertices[v] - a) > tol;
      }
    }
}

ConvexPiece hull_of(const TriangleMesh& mesh, const std::vector<int>& vertices) {
  ConvexPiece piece;
  for (const int v : vertices) piece.points.push_back(mesh.vertices[v]);
  piece.surface = piece.points;
  return piece;
}

/// The exact box or sphere the component is, if it is one (header).
bool primitive(const TriangleMesh& mesh, const std::vector<int>& vertices, ConvexPiece& piece) {
  Vec3 lo = mesh.vertices[vertices.front()], hi = lo, mean = Vec3::Zero();
  for (const int v : vertices) {
    lo = lo.cwiseMin(mesh.vertices[v]);
    hi = hi.cwiseMax(mesh.vertices[v]);
    mean += mesh.vertices[v];
  }
  mean /= static_cast<double>(vertices.size());
  const double tol = 1e-9 * (hi - lo).norm();
  const auto has_vertex = [&](const Vec3& p) {
    return std::any_of(vertices.begin(), vertices.end(), [&](int v) { return (mesh.vertices[v] - p).norm() <= tol; });
  };
  bool corners = true;
  for (int k = 0; k < 8 && corners; ++k)
    corners = has_vertex(Vec3(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(), k & 4 ? hi.z() : lo.z()));
  if (corners) {
    piece.kind = ConvexPiece::Kind::box;
    piece.center = 0.5 * (lo + hi);
    piece.size = hi - lo;
    piece.points.clear();
    return true;
  }
  // The centre: the bounding box's (exact for an even resolution), else the mean (an odd one's).
  for (const Vec3& center : {Vec3(0.5 * (lo + hi)), mean}) {
    const double R = (mesh.vertices[vertices.front()] - center).norm();
    if (vertices.size() >= 26 && std::all_of(vertices.begin(), vertices.end(), [&](int v) {
          return std::abs((mesh.vertices[v] - center).norm() - R) <= tol;
        })) {
      piece.kind = ConvexPiece::Kind::sphere;
      piece.center = center;
      piece.radius = R;
      piece.points.clear();
      piece.surface.clear();
      return true;
    }
  }
  return false;
}

/// The tube segments of a component that is a meshed torus (header), appended to `out`; false, and
/// nothing appended, where it is not one.
bool torus_segments(const TriangleMesh& mesh, const Component& part, std::vector<ConvexPiece>& out) {
  const std::vector<int>& vertices = part.vertices;
  Vec3 mean = Vec3::Zero();
  for (const int v : vertices) mean += mesh.vertices[v];
  mean /= static_cast<double>(vertices.size());
  Mat3 covariance = Mat3::Zero();
  for (const int v : vertices) covariance += (mesh.vertices[v] - mean) * (mesh.vertices[v] - mean).transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(covariance);
  const Vec3 axis = eigen.eigenvectors().col(0), u = eigen.eigenvectors().col(2), w = axis.cross(u);
  std::vector<double> rho(vertices.size()), z(vertices.size()), phi(vertices.size());
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    const Vec3 d = mesh.vertices[vertices[k]] - mean;
    z[k] = axis.dot(d);
    rho[k] = (d - z[k] * axis).norm();
    phi[k] = std::atan2(w.dot(d), u.dot(d));
  }
  // The tube circle (ρ − R)² + z² = r² through every (ρ, z), by least squares in its linear form
  // ρ² + z² = 2R ρ + (r² − R²) (an odd-sided tube has no vertex at the inner equator to read R from).
  Eigen::Matrix2d normal = Eigen::Matrix2d::Zero();
  Eigen::Vector2d rhs = Eigen::Vector2d::Zero();
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    const Eigen::Vector2d row(rho[k], 1.0);
    normal += row * row.transpose();
    rhs += row * (rho[k] * rho[k] + z[k] * z[k]);
  }
  const Eigen::Vector2d fit = normal.ldlt().solve(rhs);
  const double R = 0.5 * fit(0), r = std::sqrt(std::max(0.0, fit(1) + R * R)), tol = 1e-7 * (R + r);
  if (!(r > tol) || !(r < R)) return false;
  for (std::size_t k = 0; k < vertices.size(); ++k)
    if (std::abs(std::hypot(rho[k] - R, z[k]) - r) > tol) return false;
  // Rings: the vertices by major angle, a new ring where the angle steps by more than 10⁻⁶ rad; the
  // last one is the first where it lies at −π (atan2's cut).
  std::vector<int> order(vertices.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return phi[a] < phi[b]; });
  std::vector<int> ring_of(vertices.size());
  int rings = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k > 0 && phi[order[k]] - phi[order[k - 1]] > 1e-6) ++rings;
    ring_of[order[k]] = rings;
  }
  const bool wraps = phi[order.front()] + 2 * std::numbers::pi - phi[order.back()] <= 1e-6;
  if (wraps)
    for (int& ring : ring_of) ring = ring == rings ? 0 : ring;
  rings += wraps ? 0 : 1;
  if (rings < 3) return false;
  // Every face within one segment (two neighbouring rings), so the segments cover the surface.
  std::unordered_map<int, int> local;  // mesh vertex → index in `vertices`
  for (std::size_t k = 0; k < vertices.size(); ++k) local[vertices[k]] = static_cast<int>(k);
  for (const int f : part.faces) {
    int first = ring_of[local[mesh.faces[f][0]]];
    for (const int v : mesh.faces[f]) {
      const int step = (ring_of[local[v]] - first + rings) % rings;
      if (step == rings - 1) first = ring_of[local[v]];  // v is on the ring before: the segment starts there
    }
    for (const int v : mesh.faces[f])
      if ((ring_of[local[v]] - first + rings) % rings > 1) return false;
  }
  const std::size_t start = out.size();
  out.resize(start + rings);
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    const Vec3& x = mesh.vertices[vertices[k]];
    const int j = ring_of[k];
    out[start + j].points.push_back(x);  // ring j bounds segments j and j − 1
    out[start + (j + rings - 1) % rings].points.push_back(x);
    out[start + j].surface.push_back(x);  // and meets the ground as segment j's
  }
  return true;
}

}  // namespace

ConvexPieces convex_pieces(const TriangleMesh& mesh) {
  ConvexPieces out;
  if (mesh.vertices.empty()) return out;
  Vec3 lo = mesh.vertices.front(), hi = lo;
  for (const Vec3& x : mesh.vertices) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
  std::vector<Component> parts = components(mesh);
  mark_folds(mesh, (hi - lo).norm(), parts);
  for (const Component& part : parts) {
    ConvexPiece piece = hull_of(mesh, part.vertices);
    if (!part.folds) {
      primitive(mesh, part.vertices, piece);
      out.pieces.push_back(std::move(piece));
    } else if (!torus_segments(mesh, part, out.pieces)) {
      out.pieces.push_back(std::move(piece));
      out.hull_of_concave = true;
    }
  }
  return out;
}

}  // namespace affix
