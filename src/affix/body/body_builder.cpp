// Scene body → AffineBody: geometry, mass properties, the constant ABD mass matrix, initial state.
#include <cmath>
#include <string>

#include "affix/body/affine_body.hpp"
#include "affix/body/body_mesh.hpp"
#include "affix/error.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/math/rotation.hpp"

namespace affix {
namespace {

std::string body_path(std::size_t i) { return "bodies[" + std::to_string(i) + "]"; }

}  // namespace

/// M = ∫ρ JᵀJ dV with J = [I₃ | diag(x̄ᵀ, x̄ᵀ, x̄ᵀ)] (Lan 2022, Eq. 4):
///   M = [ m I₃            diag(m c̄ᵀ)×3 ]
///       [ diag(m c̄)×3     diag(S)×3     ]   with m c̄ = ∫ρ x̄, S = ∫ρ x̄ x̄ᵀ.
/// Constant for the whole run, which is why ABD has no Coriolis terms.
Mat12 abd_mass_matrix(double mass, const Vec3& first_moment, const Mat3& second_moment) {
  Mat12 M = Mat12::Zero();
  M.topLeftCorner<3, 3>() = mass * Mat3::Identity();
  for (int i = 0; i < 3; ++i) {
    M.block<1, 3>(i, 3 + 3 * i) = first_moment.transpose();
    M.block<3, 1>(3 + 3 * i, i) = first_moment;
    M.block<3, 3>(3 + 3 * i, 3 + 3 * i) = second_moment;
  }
  return M;
}

std::vector<AffineBody> build_affine_bodies(const Scene& scene) {
  std::vector<AffineBody> bodies;
  bodies.reserve(scene.bodies.size());
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyDef& def = scene.bodies[i];
    AffineBody body;
    body.name = def.name;
    body.mesh = body_mesh(def.shape, scene.file, body_path(i) + ".shape");

    const MassProperties props = mass_properties(body.mesh);
    body.volume = props.volume;
    const double density = def.mass ? *def.mass / props.volume : def.density;
    body.mass = density * props.volume;
    body.center_of_mass = props.first_moment / props.volume;
    body.second_moment = density * props.second_moment;
    body.mass_matrix = abd_mass_matrix(body.mass, density * props.first_moment, body.second_moment);

    body.stiffness = def.stiffness;
    body.friction = def.friction;
    body.damping = def.damping;
    body.fixed = def.fixed;
    body.kinematic = def.kinematic;
    body.collision = def.collision;
    for (const Vec3& v : body.mesh.vertices) body.bounding_radius = std::max(body.bounding_radius, v.norm());

    const Mat3 R = def.rotation.normalized().toRotationMatrix();
    body.q0 = affine_state(def.position, R);
    // Rigid motion: ẋ = v + ω × (x − p), so ṗ = v and Ȧ = [ω]ₓ A.
    body.qdot0 = affine_state(def.velocity, skew(def.angular_velocity) * R);
    bodies.push_back(std::move(body));
  }
  return bodies;
}

}  // namespace affix
