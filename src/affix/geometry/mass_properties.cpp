#include "affix/geometry/mass_properties.hpp"

#include <Eigen/Eigenvalues>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace affix {

namespace {

// Signed tetrahedra. A closed surface ∂Ω is the boundary of the union of the tetrahedra (r, a, b, c)
// joining a reference point r to every triangle (a, b, c), each counted with the sign of its
// orientation: parts outside Ω cancel between front and back triangles. With r at the origin and the
// tetrahedron parametrised as x = u a + v b + w c over the unit simplex Δ (u, v, w ≥ 0, u + v + w ≤ 1),
// dV = D du dv dw with D = det[a b c] = a · (b × c), and the simplex moments
//   ∫_Δ 1 = 1/6,  ∫_Δ u = 1/24,  ∫_Δ u² = 2/120,  ∫_Δ u v = 1/120
// give
//   V = D/6,   ∫x = D/24 (a + b + c),
//   ∫x xᵀ = D (2(aaᵀ + bbᵀ + ccᵀ) + abᵀ + baᵀ + acᵀ + caᵀ + bcᵀ + cbᵀ)/120
//         = D/120 (aaᵀ + bbᵀ + ccᵀ + s sᵀ),   s = a + b + c.
void add_tetrahedron(const Vec3& a, const Vec3& b, const Vec3& c, MassProperties& sum) {
  const double D = a.dot(b.cross(c));
  const Vec3 s = a + b + c;
  sum.volume += D / 6.0;
  sum.first_moment += D / 24.0 * s;
  sum.second_moment +=
      D / 120.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
}

/// The mean of the vertices: a reference point inside or near the solid.
Vec3 vertex_mean(const TriangleMesh& mesh) {
  Vec3 sum = Vec3::Zero();
  for (const Vec3& v : mesh.vertices) {
    sum += v;
  }
  return mesh.vertices.empty() ? sum : Vec3(sum / static_cast<double>(mesh.vertices.size()));
}

}  // namespace

MassProperties mass_properties(const TriangleMesh& mesh) {
  // Integrate in coordinates y = x − r about a point r near the mesh: far from the origin the
  // determinants D would otherwise be differences of large nearly equal numbers.
  const Vec3 r = vertex_mean(mesh);
  MassProperties local;
  for (const auto& f : mesh.faces) {
    add_tetrahedron(mesh.vertices[f[0]] - r, mesh.vertices[f[1]] - r, mesh.vertices[f[2]] - r, local);
  }
  // Shift back with x = y + r:  ∫x = ∫y + V r,  ∫x xᵀ = ∫y yᵀ + (∫y) rᵀ + r (∫y)ᵀ + V r rᵀ.
  MassProperties moments;
  moments.volume = local.volume;
  moments.first_moment = local.first_moment + local.volume * r;
  moments.second_moment = local.second_moment + local.first_moment * r.transpose() +
                          r * local.first_moment.transpose() + local.volume * r * r.transpose();
  // About c = r + d with d = ∫y / V:  ∫(y − d)(y − d)ᵀ = ∫y yᵀ − V d dᵀ, all in the local coordinates.
  if (local.volume != 0.0) {
    moments.central_second_moment =
        local.second_moment - local.first_moment * local.first_moment.transpose() / local.volume;
  }
  return moments;
}

Vec3 center_of_mass(const MassProperties& moments) {
  if (!(moments.volume > 0.0)) {
    throw std::invalid_argument("the centre of mass needs a positive volume");
  }
  return moments.first_moment / moments.volume;
}

Mat3 inertia_tensor(const MassProperties& moments, double density) {
  center_of_mass(moments);  // throws for a volume that is not positive
  // I = ∫ρ (|x − c|² 𝟙 − (x − c)(x − c)ᵀ) dV.
  const Mat3& S = moments.central_second_moment;
  return density * (S.trace() * Mat3::Identity() - S);
}

Vec3 principal_moments(const Mat3& inertia) {
  return Eigen::SelfAdjointEigenSolver<Mat3>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
}

std::optional<std::string> find_mass_defect(double mass, const Mat3& inertia) {
  if (!(std::isnormal(mass) && mass > 0.0)) return "a finite, normal, positive mass";
  if (!inertia.allFinite()) return "finite moments of inertia";
  const Vec3 moments = principal_moments(inertia);  // ascending
  if (moments[0] > 0.0 && moments[0] >= kMinInertiaRatio * moments[2]) return std::nullopt;
  const auto text = [](double value) {  // shortest round-trip form
    char buffer[32];
    return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
  };
  return "positive principal moments of inertia with smallest/largest ≥ " + text(kMinInertiaRatio) +
         ", got " + text(moments[0]) + ", " + text(moments[1]) + ", " + text(moments[2]) + " kg m^2";
}

}  // namespace affix
