#pragma once
// Helpers for physics tests: scenes built in code, and the physical quantities of affine bodies that
// the closed-form answers are about (momenta, lowest vertex, centre of mass).
#include <limits>
#include <memory>

#include "affix/body/affine_body.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene.hpp"

namespace affix::test {

inline BodyDef box_body(const std::string& name, const Vec3& size, const Vec3& position) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{size, 1};
  b.position = position;
  return b;
}

inline Scene scene_with(std::vector<BodyDef> bodies, double dt, std::optional<Ground> ground = Ground{}) {
  Scene s;
  s.name = "test";
  s.file = "test.json";
  s.settings.dt = dt;
  s.ground = ground;
  s.bodies = std::move(bodies);
  return s;
}

/// The scene compiled into the model a solver is built from.
inline std::shared_ptr<const Model> compiled(const Scene& scene) { return std::make_shared<const Model>(compile(scene)); }

/// Linear momentum ∫ρ ẋ dV = m ṗ + Ȧ (m c̄).
inline Vec3 linear_momentum(const AffineBody& b, const Vec12& qdot) {
  return b.mass * state_translation(qdot) + state_matrix(qdot) * (b.mass * b.center_of_mass);
}

/// Angular momentum about the world origin, ∫ρ x × ẋ dV with x = A x̄ + p, ẋ = Ȧ x̄ + ṗ:
/// L_k = ε_kij W_ij, W = ∫ρ x ẋᵀ = m p ṗᵀ + p (Ȧ m c̄)ᵀ + (A m c̄) ṗᵀ + A S Ȧᵀ.
inline Vec3 angular_momentum(const AffineBody& b, const Vec12& q, const Vec12& qdot) {
  const Vec3 p = state_translation(q), v = state_translation(qdot), mc = b.mass * b.center_of_mass;
  const Mat3 A = state_matrix(q), Adot = state_matrix(qdot);
  const Mat3 W = b.mass * p * v.transpose() + p * (Adot * mc).transpose() + (A * mc) * v.transpose() +
                 A * b.second_moment * Adot.transpose();
  return Vec3(W(1, 2) - W(2, 1), W(2, 0) - W(0, 2), W(0, 1) - W(1, 0));
}

inline double lowest_vertex(const AffineBody& b, const Vec12& q) {
  double z = std::numeric_limits<double>::infinity();
  for (const Vec3& x_bar : b.mesh->vertices) z = std::min(z, world_point(q, x_bar).z());
  return z;
}

}  // namespace affix::test
