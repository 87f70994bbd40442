#pragma once
// An affine body (Lan 2022 §3): state q = (p, a₀, a₁, a₂) ∈ R¹² with aᵢ the rows of A, so a rest-space
// point x̄ lands at x = A·x̄ + p = J(x̄)·q with the constant J(x̄) = [I₃ | diag(x̄ᵀ, x̄ᵀ, x̄ᵀ)].
#include <optional>
#include <string>
#include <vector>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/math/types.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// Everything a solver needs about one body that does not change during a run.
struct AffineBody {
  std::string name;
  TriangleMesh mesh;             ///< rest frame
  double volume = 0.0;           ///< m³
  double mass = 0.0;             ///< kg
  Vec3 center_of_mass = Vec3::Zero();        ///< rest frame
  Mat3 second_moment = Mat3::Zero();         ///< ∫ρ x̄ x̄ᵀ dV, rest frame, about the body origin
  Mat12 mass_matrix = Mat12::Zero();         ///< ∫ρ JᵀJ dV, Lan 2022 Eq. 4
  double stiffness = 1e9;        ///< κ of the orthogonality potential (Pa)
  double friction = 0.5;
  double damping = 0.0;          ///< Rayleigh k_d of its contacts (s), Chen 2022 §5.1
  bool fixed = false;
  std::optional<Kinematic> kinematic;
  CollisionFilter collision;
  std::vector<int> no_contact_with;  ///< bodies joined to this one with collide_connected false
  double bounding_radius = 0.0;  ///< max ‖x̄‖ over the mesh: how far a unit change of A moves a vertex
  Vec12 q0 = Vec12::Zero();      ///< state at t = 0
  Vec12 qdot0 = Vec12::Zero();   ///< q̇ at t = 0 from the scene's linear and angular velocity

  /// Bodies whose state is prescribed rather than solved for.
  bool is_dirichlet() const { return fixed || kinematic.has_value(); }
};

/// q from a pose: p then the rows of A.
Vec12 affine_state(const Vec3& p, const Mat3& A);
Vec3 state_translation(const Vec12& q);
Mat3 state_matrix(const Vec12& q);
/// J(x̄): the 3×12 map from q to the world position of rest point x̄.
Mat3x12 point_jacobian(const Vec3& x_bar);
/// World position of rest point x̄ under state q (= J(x̄)·q, without forming J).
Vec3 world_point(const Vec12& q, const Vec3& x_bar);
/// J(x̄)ᵀ g: a force g at rest point x̄ as a generalized force, [g; g₀x̄; g₁x̄; g₂x̄].
Vec12 point_jacobian_transpose_times(const Vec3& x_bar, const Vec3& g);
/// J(x̄)ᵀ M J(x̄'), by blocks (p, a₀, a₁, a₂): [[M, M(:,j) x̄'ᵀ], [x̄ M(i,:), M(i,j) x̄ x̄'ᵀ]].
Mat12 point_jacobian_congruence(const Vec3& x_bar, const Mat3& M, const Vec3& x_bar_other);

/// M = ∫ρ JᵀJ dV from the mass, the first moment ∫ρ x̄ and the second moment ∫ρ x̄ x̄ᵀ (Lan 2022 Eq. 4).
Mat12 abd_mass_matrix(double mass, const Vec3& first_moment, const Mat3& second_moment);

/// Builds every body of a scene: meshes (primitive or OBJ, validated), mass properties, mass
/// matrix, initial state. Throws InputError naming the JSON path (`bodies[2].shape.mesh.file`).
std::vector<AffineBody> build_affine_bodies(const Scene& scene);

}  // namespace affix
