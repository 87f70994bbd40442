// Scene body → ModelBody: geometry, mass properties, material, initial state. Everything `affix
// validate`, `info` and `run` know about a body's mass comes from here, so the checks that a body's
// derived mass properties are usable live here too: a mass of 1e308 kg or a density of 5e-324 kg/m³
// passes every field check and would only fail mid-run.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>

#include "affix/error.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/math/normalize.hpp"
#include "affix/math/number_text.hpp"
#include "affix/model/body_mesh.hpp"
#include "affix/model/model.hpp"

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

/// A body the solvers can move: finite, normal, positive mass; finite moments about the origin;
/// positive, well-conditioned principal moments; finite weight. The message names the field that set
/// the mass: `mass` if given, else `density` (given or its default).
void check_mass_properties(const BodyDef& def, const ModelBody& body, const MassProperties& props,
                           const Scene& scene, std::size_t i) {
  // The message is built only when it is thrown: formatting its numbers for every body that passes was
  // a fifth of compile()'s samples on a 10⁵-link chain.
  const auto where = [&] { return scene.file.string() + ": " + body_path(i); };
  if (!(std::isnormal(props.volume) && props.volume > 0.0)) {
    throw InputError(where() + ".shape: expected a shape of finite, positive volume, got " +
                     num(props.volume) + " m^3");
  }
  const auto fail = [&](const std::string& expected) {
    const std::string field = def.inertial ? ".inertial" : def.mass ? ".mass" : ".density";
    const std::string derived = def.inertial ? " (mass " + num(body.mass) + " kg as given)"
                                : " (mass " + num(body.mass) + " kg from " +
                                      (def.mass ? "mass " + num(*def.mass) + " kg"
                                                : "density " + num(def.density) + " kg/m^3") +
                                      " and volume " + num(props.volume) + " m^3)";
    throw InputError(where() + field + ": expected " + expected + derived);
  };
  if (auto defect = find_mass_defect(body.mass, body.inertia)) fail(*defect);
  // The moments about the body origin (an affine body's mass matrix holds them) can overflow where
  // the central ones do not (a mesh far from its origin).
  if (!(body.second_moment.allFinite() && body.first_moment.allFinite()))
    fail("finite moments of inertia about the body origin");
  const double g = scaled_norm(scene.settings.gravity);
  if (!std::isfinite(body.mass * g)) {
    fail("a mass whose weight m·|g| is finite, with |g| = " + num(g) + " m/s^2 (settings.gravity)");
  }
}

/// A shape's identity for sharing: its kind and every field, as bytes (the same bytes, the same mesh),
/// appended to `key` (the caller's buffer is reused: a capsule's 21 bytes were an allocation per body).
void append_shape_key(const Shape& shape, std::string& key) {
  key.push_back(static_cast<char>(shape.index()));
  const auto add = [&key](const auto& value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, BoxShape>) {
          add(s.size.x()), add(s.size.y()), add(s.size.z()), add(s.resolution);
        } else if constexpr (std::is_same_v<S, SphereShape>) {
          add(s.radius), add(s.resolution);
        } else if constexpr (std::is_same_v<S, TorusShape>) {
          add(s.major), add(s.minor), add(s.resolution);
        } else if constexpr (std::is_same_v<S, MeshShape>) {
          add(s.scale.x()), add(s.scale.y()), add(s.scale.z());
          key += s.file.string();
          key += '\0';  // ends the name, so that a compound's next part cannot extend it
          if (s.file.empty()) {  // inline: the counts, then every number
            add(s.vertices.size()), add(s.triangles.size());
            for (const Vec3& v : s.vertices) add(v.x()), add(v.y()), add(v.z());
            for (const auto& t : s.triangles) add(t);
          }
        } else if constexpr (std::is_same_v<S, CompoundShape>) {
          add(s.parts.size());
          for (const ShapePart& part : s.parts) {
            for (int k = 0; k < 3; ++k) add(part.position[k]), add(part.scale[k]);
            add(part.rotation.w()), add(part.rotation.x()), add(part.rotation.y()), add(part.rotation.z());
            append_shape_key(part.shape, key);
          }
        } else {  // capsule, cylinder
          add(s.radius), add(s.length), add(s.resolution);
        }
      },
      shape);
}

/// What a body takes from its shape alone, computed once per distinct shape: a 10⁶-link chain has one
/// capsule, not a million copies of it (each ~4 kB, meshed, checked and integrated).
struct ShapeFacts {
  std::shared_ptr<const TriangleMesh> mesh;
  MassProperties props;         // unit density
  double bounding_radius = 0.0;
};

/// Mass properties as given (an imported model's inertial) instead of integrated from the shape. The
/// affine mass matrix needs the second moment about the body origin, S = ∫ x̄ x̄ᵀ dm: from the central
/// inertia I = tr(S_c) 𝟙 − S_c, tr(I) = 2 tr(S_c), so S_c = ½ tr(I) 𝟙 − I, and the parallel-axis shift
/// gives S = S_c + m c cᵀ (c the centre of mass). The volume stays the shape's: it scales the
/// orthogonality stiffness κ·V, a material property of the surface, not of the mass.
void set_inertial(const Inertial& inertial, ModelBody& body) {
  const Mat3& I = inertial.inertia;
  const Vec3& c = inertial.center_of_mass;
  body.mass = inertial.mass;
  body.center_of_mass = c;
  body.first_moment = inertial.mass * c;
  body.inertia = I;
  body.second_moment = 0.5 * I.trace() * Mat3::Identity() - I + inertial.mass * c * c.transpose();
}

}  // namespace

std::vector<ModelBody> compile_bodies(const Scene& scene) {
  std::vector<ModelBody> bodies;
  bodies.reserve(scene.bodies.size());
  // Primitives are counted before meshing, so nothing huge is allocated; a mesh file once it is read
  // (its own size bounds that), on top of every primitive.
  std::int64_t triangles = primitive_triangles(scene);
  // A shape is meshed, checked and integrated where it first occurs, so an invalid one is reported at
  // the first body that has it, as if every body were meshed in turn.
  std::unordered_map<std::string, ShapeFacts> shapes;
  // Consecutive bodies mostly share their shape (a chain, a net): the last key is compared before the
  // map is searched. And a body whose mass properties equal the last checked body's passes its checks.
  std::string key, last_key;
  ShapeFacts* last_facts = nullptr;
  const ModelBody* last_checked = nullptr;
  double last_volume = 0.0;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyDef& def = scene.bodies[i];
    ModelBody body;
    body.name = def.name;
    key.clear();
    append_shape_key(def.shape, key);
    bool inserted = false;
    if (!last_facts || key != last_key) {
      const auto found = shapes.try_emplace(key);
      inserted = found.second;
      last_facts = &found.first->second;  // stable: an unordered_map's nodes do not move
      last_key = key;
    }
    ShapeFacts& facts = *last_facts;
    if (inserted) {
      facts.mesh = std::make_shared<const TriangleMesh>(body_mesh(def.shape, scene.file, body_path(i) + ".shape"));
      facts.props = mass_properties(*facts.mesh);
      for (const Vec3& v : facts.mesh->vertices) facts.bounding_radius = std::max(facts.bounding_radius, v.norm());
    }
    if (!primitive_triangle_count(def.shape)) {  // a mesh, or a compound with a mesh part
      const auto own = static_cast<std::int64_t>(facts.mesh->faces.size());
      check_triangle_budget(triangles, own, scene, i);
      triangles += own;
    }

    const MassProperties& props = facts.props;
    body.volume = props.volume;
    const double density = def.mass ? *def.mass / props.volume : def.density;
    body.mass = density * props.volume;
    body.center_of_mass = props.first_moment / props.volume;
    body.first_moment = density * props.first_moment;
    body.second_moment = density * props.second_moment;
    // (a volume check_mass_properties refuses has no inertia tensor)
    if (std::isnormal(props.volume) && props.volume > 0.0) body.inertia = inertia_tensor(props, density);
    if (def.inertial) set_inertial(*def.inertial, body);
    // The checks read these alone (and the gravity, the scene's): equal ones passed already.
    const bool checked = last_checked && props.volume == last_volume && body.mass == last_checked->mass &&
                         body.inertia == last_checked->inertia && body.first_moment == last_checked->first_moment &&
                         body.second_moment == last_checked->second_moment;
    if (!checked) check_mass_properties(def, body, props, scene, i);

    body.stiffness = def.stiffness;
    body.friction = def.friction;
    body.damping = def.damping;
    body.fixed = def.fixed;
    body.kinematic = def.kinematic;
    body.collision = def.collision;
    body.bounding_radius = facts.bounding_radius;
    body.mesh = facts.mesh;

    body.position = def.position;
    body.rotation = def.rotation.normalized().toRotationMatrix();
    body.velocity = def.velocity;
    body.angular_velocity = def.angular_velocity;
    bodies.push_back(std::move(body));
    last_checked = &bodies.back(), last_volume = props.volume;  // reserved: the vector does not move
  }
  return bodies;
}

}  // namespace affix
