#pragma once
// Volume integrals of a closed, outward-oriented triangle mesh (unit density), exact up to rounding:
// the divergence theorem turns each integral over the solid into a sum over its triangles.
#include <optional>
#include <string>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// Moments of the solid Ω about the rest-frame origin.
struct MassProperties {
  double volume = 0.0;                ///< ∫_Ω 1 dV
  Vec3 first_moment = Vec3::Zero();   ///< ∫_Ω x dV
  Mat3 second_moment = Mat3::Zero();  ///< ∫_Ω x xᵀ dV
  /// ∫_Ω (x − c)(x − c)ᵀ dV about the centre of mass c, computed before the shift to the origin: far
  /// from the origin S − V c cᵀ would cancel to noise.
  Mat3 central_second_moment = Mat3::Zero();
};

/// Moments of a closed mesh (see find_mesh_defect). An inward-oriented mesh gives negated moments.
MassProperties mass_properties(const TriangleMesh& mesh);

/// ∫x dV / V. Throws std::invalid_argument when the volume is not positive.
Vec3 center_of_mass(const MassProperties& moments);

/// Inertia tensor about the centre of mass for a uniform `density`:
/// I = ρ (tr(S_c) 𝟙 − S_c) with S_c = central_second_moment (= S − V c cᵀ, the parallel-axis shift).
/// Throws std::invalid_argument when the volume is not positive.
Mat3 inertia_tensor(const MassProperties& moments, double density);

/// The principal moments of a (symmetric) inertia tensor: its eigenvalues, ascending.
Vec3 principal_moments(const Mat3& inertia);

/// The smallest principal moment over the largest below which a body is refused: a needle of aspect
/// ratio beyond about 10⁶, whose spin about its own axis no solver resolves against the other two.
/// (A closed mesh that passes find_mesh_defect's volume check stays above it; this guards the rest.)
inline constexpr double kMinInertiaRatio = 1e-12;

/// nullopt when a body of `mass` (kg) and central `inertia` (kg·m²) is one the solvers can move: the
/// mass finite, normal and positive, the inertia finite, its principal moments positive with
/// smallest/largest ≥ kMinInertiaRatio; else what was expected, e.g. "a finite, normal, positive mass".
std::optional<std::string> find_mass_defect(double mass, const Mat3& inertia);

}  // namespace affix
