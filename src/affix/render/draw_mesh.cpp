#include "affix/render/draw_mesh.hpp"

#include <cmath>
#include <numbers>

namespace affix {

DrawMesh make_draw_mesh(const TriangleMesh& mesh, double crease_deg) {
  const std::size_t n_faces = mesh.faces.size();
  std::vector<Vec3> area_normal(n_faces);  // e1 × e2: twice the area times the unit normal
  std::vector<std::vector<int>> faces_of_vertex(mesh.vertices.size());
  for (std::size_t f = 0; f < n_faces; ++f) {
    const auto& [i, j, k] = mesh.faces[f];
    area_normal[f] = (mesh.vertices[j] - mesh.vertices[i]).cross(mesh.vertices[k] - mesh.vertices[i]);
    for (int v : mesh.faces[f]) faces_of_vertex[v].push_back(static_cast<int>(f));
  }
  const double cos_crease = std::cos(crease_deg * std::numbers::pi / 180.0);
  DrawMesh out;
  out.corners.reserve(3 * n_faces);
  out.normals.reserve(3 * n_faces);
  for (std::size_t f = 0; f < n_faces; ++f) {
    const Vec3 own = area_normal[f].normalized();
    for (int v : mesh.faces[f]) {
      Vec3 sum = Vec3::Zero();
      for (int g : faces_of_vertex[v]) {
        if (area_normal[g].normalized().dot(own) >= cos_crease) sum += area_normal[g];
      }
      out.corners.push_back(mesh.vertices[v]);
      out.normals.push_back(sum.norm() > 0 ? Vec3(sum.normalized()) : own);
    }
  }
  return out;
}

bool drawable(const BodyPose& pose) {
  constexpr double kLimit = 1e15;  // then |A·x̄ + p| ≤ 3.1e27, far inside float range
  return (pose.p.array().abs() <= kLimit).all() && (pose.A.array().abs() <= kLimit).all();
}

void append_posed(const DrawMesh& mesh, const BodyPose& pose, std::vector<float>& positions,
                  std::vector<float>& normals) {
  // A⁻ᵀ up to a positive factor is the cofactor matrix when det A > 0; invert directly and fall back to
  // A itself for a (never expected) singular map.
  Mat3 normal_map = pose.A;
  bool invertible = false;
  double det = 0;
  Mat3 inverse;
  pose.A.computeInverseAndDetWithCheck(inverse, det, invertible);
  if (invertible) normal_map = inverse.transpose();
  for (std::size_t c = 0; c < mesh.corners.size(); ++c) {
    const Vec3 x = pose.A * mesh.corners[c] + pose.p;
    Vec3 n = normal_map * mesh.normals[c];
    n.normalize();
    positions.insert(positions.end(), {float(x.x()), float(x.y()), float(x.z())});
    normals.insert(normals.end(), {float(n.x()), float(n.y()), float(n.z())});
  }
}

}  // namespace affix
