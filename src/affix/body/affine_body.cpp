#include "affix/body/affine_body.hpp"

#include "affix/math/rotation.hpp"

namespace affix {

Vec12 affine_state(const Vec3& p, const Mat3& A) {
  Vec12 q;
  q << p, A.row(0).transpose(), A.row(1).transpose(), A.row(2).transpose();
  return q;
}

Vec3 state_translation(const Vec12& q) { return q.head<3>(); }

Mat3 state_matrix(const Vec12& q) {
  Mat3 A;
  A.row(0) = q.segment<3>(3).transpose();
  A.row(1) = q.segment<3>(6).transpose();
  A.row(2) = q.segment<3>(9).transpose();
  return A;
}

Mat3x12 point_jacobian(const Vec3& x_bar) {
  Mat3x12 J = Mat3x12::Zero();
  J.leftCols<3>().setIdentity();
  for (int i = 0; i < 3; ++i) J.block<1, 3>(i, 3 + 3 * i) = x_bar.transpose();
  return J;
}

Vec12 point_jacobian_transpose_times(const Vec3& x_bar, const Vec3& g) {
  Vec12 out;
  out << g, g[0] * x_bar, g[1] * x_bar, g[2] * x_bar;
  return out;
}

Mat12 point_jacobian_congruence(const Vec3& x_bar, const Mat3& M, const Vec3& x_bar_other) {
  Mat12 out;
  out.topLeftCorner<3, 3>() = M;
  for (int j = 0; j < 3; ++j) out.block<3, 3>(0, 3 + 3 * j) = M.col(j) * x_bar_other.transpose();
  for (int i = 0; i < 3; ++i) {
    out.block<3, 3>(3 + 3 * i, 0) = x_bar * M.row(i);
    for (int j = 0; j < 3; ++j) out.block<3, 3>(3 + 3 * i, 3 + 3 * j) = M(i, j) * x_bar * x_bar_other.transpose();
  }
  return out;
}

/// M = ∫ρ JᵀJ dV with J = [I₃ | diag(x̄ᵀ, x̄ᵀ, x̄ᵀ)] (Lan 2022, Eq. 4):
///   M = [ m I₃            diag(m c̄ᵀ)×3 ]
///       [ diag(m c̄)×3     diag(S)×3     ]   with m c̄ = ∫ρ x̄, S = ∫ρ x̄ x̄ᵀ.
/// Constant for the whole run, which is why ABD has no Coriolis terms.
BodyPose affine_pose(const Vec12& q) { return {state_translation(q), state_matrix(q)}; }

BodyVelocity affine_velocity(const Vec12& q, const Vec12& qdot) {
  BodyVelocity v;
  v.linear = state_translation(qdot);
  v.A_dot = state_matrix(qdot);
  const Mat3 W = v.A_dot * state_matrix(q).inverse();
  v.angular = 0.5 * Vec3(W(2, 1) - W(1, 2), W(0, 2) - W(2, 0), W(1, 0) - W(0, 1));
  return v;
}

std::vector<AffineBody> affine_bodies(const Model& model) {
  std::vector<AffineBody> bodies;
  bodies.reserve(model.bodies.size());
  for (const ModelBody& m : model.bodies) {
    AffineBody body;
    static_cast<ModelBody&>(body) = m;
    body.mass_matrix = {m.mass, m.first_moment, m.second_moment};
    body.q0 = affine_state(m.position, m.rotation);
    // Rigid motion: ẋ = v + ω × (x − p), so ṗ = v and Ȧ = [ω]ₓ A.
    body.qdot0 = affine_state(m.velocity, skew(m.angular_velocity) * m.rotation);
    bodies.push_back(std::move(body));
  }
  for (const auto& [i, j] : model.excluded_pairs) {
    bodies[i].no_contact_with.push_back(j);
    bodies[j].no_contact_with.push_back(i);
  }
  return bodies;
}

}  // namespace affix
