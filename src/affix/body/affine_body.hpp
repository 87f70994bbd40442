#pragma once
// An affine body (Lan 2022 §3): state q = (p, a₀, a₁, a₂) ∈ R¹² with aᵢ the rows of A, so a rest-space
// point x̄ lands at x = A·x̄ + p = J(x̄)·q with the constant J(x̄) = [I₃ | diag(x̄ᵀ, x̄ᵀ, x̄ᵀ)].
#include <vector>

#include "affix/body/affine_mass.hpp"
#include "affix/math/types.hpp"
#include "affix/model/body_state.hpp"
#include "affix/model/dof_layout.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// A model body as the `ipc` solver moves it: the solver-neutral facts (ModelBody) plus what its 12
/// affine DOFs add — the constant mass matrix, the state and rate at t = 0 — and the bodies it must
/// not touch (its joints' exclusions, by body index, virtual links included).
struct AffineBody : ModelBody {
  AffineMass mass_matrix;                    ///< ∫ρ JᵀJ dV, Lan 2022 Eq. 4 (affine_mass.hpp)
  Vec12 q0 = Vec12::Zero();      ///< state at t = 0
  Vec12 qdot0 = Vec12::Zero();   ///< q̇ at t = 0 from the model's linear and angular velocity
  std::vector<int> no_contact_with;  ///< bodies joined to this one with collide_connected false
};

/// q from a pose: p then the rows of A.
Vec12 affine_state(const Vec3& p, const Mat3& A);
Vec3 state_translation(const Vec12& q);
Mat3 state_matrix(const Vec12& q);
/// The pose (p, A) of state q, and the world velocity of state rate q̇ at q: ṗ, Ȧ, and ω from the skew
/// part of Ȧ A⁻¹ (exactly Ȧ = [ω]ₓA for a rigid motion).
BodyPose affine_pose(const Vec12& q);
BodyVelocity affine_velocity(const Vec12& q, const Vec12& qdot);
/// J(x̄): the 3×12 map from q to the world position of rest point x̄.
Mat3x12 point_jacobian(const Vec3& x_bar);
/// World position of rest point x̄ under state q (= J(x̄)·q, without forming J; for an update Δq, the
/// point's motion J(x̄)·Δq). Inline: every joint's rows read it, twice a step at 10⁶ joints.
inline Vec3 world_point(const Vec12& q, const Vec3& x_bar) {
  return Vec3(q[0] + q.segment<3>(3).dot(x_bar), q[1] + q.segment<3>(6).dot(x_bar),
              q[2] + q.segment<3>(9).dot(x_bar));
}
/// J(x̄)ᵀ g: a force g at rest point x̄ as a generalized force, [g; g₀x̄; g₁x̄; g₂x̄].
Vec12 point_jacobian_transpose_times(const Vec3& x_bar, const Vec3& g);
/// J(x̄)ᵀ M J(x̄'), by blocks (p, a₀, a₁, a₂): [[M, M(:,j) x̄'ᵀ], [x̄ M(i,:), M(i,j) x̄ x̄'ᵀ]].
Mat12 point_jacobian_congruence(const Vec3& x_bar, const Mat3& M, const Vec3& x_bar_other);


/// The affine bodies of a model, in model order (their meshes shared with it): the mass matrix from the
/// mass properties, q and q̇ at t = 0 from the initial pose and twist, the exclusions.
std::vector<AffineBody> affine_bodies(const Model& model);
/// The stacked layout of affine bodies: kAffineDofs each, in body order.
inline DofLayout affine_layout(const std::vector<AffineBody>& bodies) {
  return DofLayout::uniform(static_cast<int>(bodies.size()), kAffineDofs);
}

}  // namespace affix
