#pragma once
// Volume integrals of a closed, outward-oriented triangle mesh (unit density), exact up to rounding:
// the divergence theorem turns each integral over the solid into a sum over its triangles.
#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// Moments of the solid Ω about the rest-frame origin.
struct MassProperties {
  double volume = 0.0;                ///< ∫_Ω 1 dV
  Vec3 first_moment = Vec3::Zero();   ///< ∫_Ω x dV
  Mat3 second_moment = Mat3::Zero();  ///< ∫_Ω x xᵀ dV
};

/// Moments of a closed mesh (see find_mesh_defect). An inward-oriented mesh gives negated moments.
MassProperties mass_properties(const TriangleMesh& mesh);

/// ∫x dV / V. Throws std::invalid_argument when the volume is not positive.
Vec3 center_of_mass(const MassProperties& moments);

/// Inertia tensor about the centre of mass for a uniform `density`:
/// I = ρ (tr(S_c) 𝟙 − S_c) with S_c = S − V c cᵀ the second moment about the centre of mass c
/// (parallel-axis shift). Throws std::invalid_argument when the volume is not positive.
Mat3 inertia_tensor(const MassProperties& moments, double density);

}  // namespace affix
