#include "affix/scene/body_reader.hpp"

#include <Eigen/Eigenvalues>
#include <numbers>
#include <optional>
#include <string>

#include "affix/math/normalize.hpp"
#include "affix/math/number_text.hpp"
#include "affix/scene/shape_reader.hpp"

namespace affix {

namespace {

constexpr const char* kRotationForms = "a quaternion [w, x, y, z] or {\"axis\": [x, y, z], \"angle_deg\": a}";

Quat read_quaternion(const JsonReader& value) {
  const auto c = value.array(4);
  const std::optional<Quat> q =
      normalized_quaternion(Quat(c[0].number(), c[1].number(), c[2].number(), c[3].number()));
  if (!q) value.expected("a non-zero quaternion [w, x, y, z]");
  return *q;
}

Quat read_axis_angle(const JsonReader& value) {
  const ObjectReader obj(value, {"axis", "angle_deg"});
  const Vec3 axis = obj.at("axis").direction();
  const double angle = obj.at("angle_deg").number() * std::numbers::pi / 180.0;
  // The axis is unit length already, so the quaternion is too, up to rounding.
  return Quat(Eigen::AngleAxisd(angle, axis)).normalized();
}

Keyframe read_keyframe(const JsonReader& value) {
  const ObjectReader obj(value, {"time", "position", "rotation"});
  Keyframe key;
  key.time = obj.at("time").number();
  key.position = obj.at("position").vec3();
  if (auto v = obj.find("rotation")) key.rotation = read_rotation(*v);
  return key;
}

/// Keys in time order, starting no earlier than t = 0; equal times would make the motion jump.
std::vector<Keyframe> read_keyframes(const JsonReader& value) {
  std::vector<Keyframe> keys;
  for (const JsonReader& item : value.non_empty_array()) {
    keys.push_back(read_keyframe(item));
    const JsonReader time = item.child("time");
    if (keys.size() == 1 && keys[0].time < 0.0) time.expected("a time ≥ 0 for the first keyframe");
    if (keys.size() > 1 && !(keys.back().time > keys[keys.size() - 2].time)) {
      time.expected("a time greater than the previous keyframe's (" +
                    number_text(keys[keys.size() - 2].time) + ")");
    }
  }
  return keys;
}

Kinematic read_kinematic(const JsonReader& value) {
  const ObjectReader obj(value, {"velocity", "angular_velocity", "keyframes"});
  Kinematic kinematic;
  if (auto v = obj.find("keyframes")) {
    if (obj.has("velocity") || obj.has("angular_velocity")) {
      v->fail("cannot be combined with velocity/angular_velocity (expected one form of kinematic motion)");
    }
    kinematic.keyframes = read_keyframes(*v);
  }
  if (auto v = obj.find("velocity")) kinematic.velocity = v->vec3();
  if (auto v = obj.find("angular_velocity")) kinematic.angular_velocity = v->vec3();
  return kinematic;
}

CollisionFilter read_collision(const JsonReader& value) {
  const ObjectReader obj(value, {"group", "mask"});
  CollisionFilter filter;
  if (auto v = obj.find("group")) filter.group = v->integer();
  if (auto v = obj.find("mask")) filter.mask = v->integer();
  return filter;
}

/// `inertia`: three principal moments [Ixx, Iyy, Izz] or six numbers in MJCF's `fullinertia` order
/// [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]. A body's central inertia is a physical one only when its principal
/// moments are positive and each is at most the sum of the other two (I₁ = ∫(y² + z²) dm ≤ I₂ + I₃ =
/// ∫(x² + y² + 2z²) dm); an affine body needs exactly that, since its mass matrix holds the central
/// second moment ½ tr(I) 𝟙 − I, which must be positive semi-definite.
Mat3 read_inertia(const JsonReader& value) {
  const std::size_t n = value.is_array() ? value.size() : 0;
  if (n != 3 && n != 6) value.expected("an array of 3 principal moments or 6 numbers [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]");
  const auto c = value.array(n);
  Mat3 inertia = Mat3::Zero();
  for (int i = 0; i < 3; ++i) inertia(i, i) = c[i].number();
  if (n == 6) {
    inertia(0, 1) = inertia(1, 0) = c[3].number();
    inertia(0, 2) = inertia(2, 0) = c[4].number();
    inertia(1, 2) = inertia(2, 1) = c[5].number();
  }
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(inertia, Eigen::EigenvaluesOnly).eigenvalues();
  const double slack = 1e-12 * moments.cwiseAbs().maxCoeff();
  if (!moments.allFinite() || !(moments.minCoeff() > 0.0) || moments[2] > moments[0] + moments[1] + slack) {
    value.expected("a positive definite inertia tensor whose principal moments each are at most the sum of "
                   "the other two, got principal moments [" + number_text(moments[0]) + ", " +
                   number_text(moments[1]) + ", " + number_text(moments[2]) + "]");
  }
  return inertia;
}

Inertial read_inertial(const JsonReader& value) {
  const ObjectReader obj(value, {"mass", "center_of_mass", "inertia"}, "inertial properties");
  Inertial inertial;
  inertial.mass = obj.at("mass").positive();
  if (auto v = obj.find("center_of_mass")) inertial.center_of_mass = v->vec3();
  inertial.inertia = read_inertia(obj.at("inertia"));
  return inertial;
}

std::string read_body_name(const JsonReader& value) {
  std::string name = value.name();
  // Joints name the static world "world"; a body of that name would be ambiguous.
  if (name == "world") value.expected("a body name other than \"world\" (reserved)");
  return name;
}

}  // namespace

Quat read_rotation(const JsonReader& value) {
  if (value.is_array() && value.size() == 4) return read_quaternion(value);
  if (value.is_object()) return read_axis_angle(value);
  value.expected(kRotationForms);
}

BodyDef read_body(const JsonReader& value, const std::filesystem::path& scene_dir) {
  const ObjectReader obj(
      value, {"name", "shape", "density", "mass", "position", "rotation", "velocity", "angular_velocity",
              "friction", "damping", "stiffness", "fixed", "kinematic", "collision", "inertial"});
  BodyDef body;
  body.name = read_body_name(obj.at("name"));
  body.shape = read_shape(obj.at("shape"), scene_dir);
  if (auto v = obj.find("density")) body.density = v->positive();
  if (auto v = obj.find("mass")) {
    if (obj.has("density")) v->fail("expected only one of density and mass, got both");
    body.mass = v->positive();
  }
  if (auto v = obj.find("inertial")) {
    if (obj.has("density") || obj.has("mass")) v->fail("expected only one of density, mass and inertial");
    body.inertial = read_inertial(*v);
  }
  if (auto v = obj.find("position")) body.position = v->vec3();
  if (auto v = obj.find("rotation")) body.rotation = read_rotation(*v);
  if (auto v = obj.find("velocity")) body.velocity = v->vec3();
  if (auto v = obj.find("angular_velocity")) body.angular_velocity = v->vec3();
  if (auto v = obj.find("friction")) body.friction = v->non_negative();
  if (auto v = obj.find("damping")) body.damping = v->non_negative();
  if (auto v = obj.find("stiffness")) body.stiffness = v->positive();
  if (auto v = obj.find("fixed")) body.fixed = v->boolean();
  if (auto v = obj.find("kinematic")) {
    if (body.fixed) v->fail("not allowed on a fixed body (expected either fixed or kinematic, not both)");
    body.kinematic = read_kinematic(*v);
  }
  if (auto v = obj.find("collision")) body.collision = read_collision(*v);
  return body;
}

}  // namespace affix
