// Scene body → AffineBody: geometry, mass properties, the constant ABD mass matrix, initial state.
// Everything `affix validate`, `info` and `run` know about a body's mass comes from here, so the
// checks that a body's derived mass properties are usable live here too: a mass of 1e308 kg or a
// density of 5e-324 kg/m³ passes every field check and would only fail mid-run.
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>

#include "affix/body/affine_body.hpp"
#include "affix/body/body_mesh.hpp"
#include "affix/error.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/math/normalize.hpp"
#include "affix/math/number_text.hpp"
#include "affix/math/rotation.hpp"

namespace affix {
namespace {

std::string body_path(std::size_t i) { return "bodies[" + std::to_string(i) + "]"; }

/// Shortest round-trip text of a number, as the scene file would write it.
std::string num(double value) { return number_text(value); }  // inf, not JSON's null

/// Refuses a scene whose meshes would exceed kMaxSceneTriangles once body i adds `added` to `total`.
void check_triangle_budget(std::int64_t total, std::int64_t added, const Scene& scene, std::size_t i) {
  if (total + added <= kMaxSceneTriangles) return;
  throw InputError(scene.file.string() + ": " + body_path(i) + ".shape: expected at most " +
                   std::to_string(kMaxSceneTriangles) + " triangles in the whole scene, got " +
                   std::to_string(total + added) + " with this body (" + std::to_string(added) +
                   " of its own)");
}

/// The triangles of every primitive in the scene, from their formulas, refusing the scene at the
/// body where the running total passes the limit — all before anything is meshed, so that a scene
/// of five boxes at resolution 1000 is refused without meshing the first four.
std::int64_t primitive_triangles(const Scene& scene) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (const auto count = primitive_triangle_count(scene.bodies[i].shape)) {
      check_triangle_budget(total, *count, scene, i);
      total += *count;
    }
  }
  return total;
}

/// A body the solvers can move: finite, normal, positive mass; finite moments and mass matrix;
/// positive, well-conditioned principal moments; finite weight. The message names the field that set
/// the mass: `mass` if given, else `density` (given or its default).
void check_mass_properties(const BodyDef& def, const AffineBody& body, const MassProperties& props,
                           const Scene& scene, std::size_t i) {
  const std::string where = scene.file.string() + ": " + body_path(i);
  if (!(std::isnormal(props.volume) && props.volume > 0.0)) {
    throw InputError(where + ".shape: expected a shape of finite, positive volume, got " +
                     num(props.volume) + " m^3");
  }
  const std::string field = def.mass ? ".mass" : ".density";
  const std::string derived = " (mass " + num(body.mass) + " kg from " +
                              (def.mass ? "mass " + num(*def.mass) + " kg"
                                        : "density " + num(def.density) + " kg/m^3") +
                              " and volume " + num(props.volume) + " m^3)";
  const auto fail = [&](const std::string& expected) {
    throw InputError(where + field + ": expected " + expected + derived);
  };
  const Mat3 inertia = inertia_tensor(props, body.mass / props.volume);
  if (auto defect = find_mass_defect(body.mass, inertia)) fail(*defect);
  // The mass matrix holds moments about the body origin, which can overflow where the central ones
  // do not (a mesh far from its origin).
  if (!body.mass_matrix.allFinite()) fail("finite moments of inertia about the body origin");
  const double g = scaled_norm(scene.settings.gravity);
  if (!std::isfinite(body.mass * g)) {
    fail("a mass whose weight m·|g| is finite, with |g| = " + num(g) + " m/s^2 (settings.gravity)");
  }
}

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
  // Primitives are counted before meshing, so nothing huge is allocated; a mesh file once it is read
  // (its own size bounds that), on top of every primitive.
  std::int64_t triangles = primitive_triangles(scene);
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyDef& def = scene.bodies[i];
    AffineBody body;
    body.name = def.name;
    body.mesh = body_mesh(def.shape, scene.file, body_path(i) + ".shape");
    if (std::holds_alternative<MeshShape>(def.shape)) {
      const auto own = static_cast<std::int64_t>(body.mesh.faces.size());
      check_triangle_budget(triangles, own, scene, i);
      triangles += own;
    }

    const MassProperties props = mass_properties(body.mesh);
    body.volume = props.volume;
    const double density = def.mass ? *def.mass / props.volume : def.density;
    body.mass = density * props.volume;
    body.center_of_mass = props.first_moment / props.volume;
    body.second_moment = density * props.second_moment;
    body.mass_matrix = abd_mass_matrix(body.mass, density * props.first_moment, body.second_moment);
    check_mass_properties(def, body, props, scene, i);

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
