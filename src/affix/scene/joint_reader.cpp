#include "affix/scene/joint_reader.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"

namespace affix {

namespace {

constexpr JointType kJointTypes[] = {JointType::ball,      JointType::hinge, JointType::prismatic,
                                     JointType::universal, JointType::fixed, JointType::cone_twist,
                                     JointType::distance,  JointType::slider, JointType::cable};
constexpr double kPerpendicularTolerance = 1e-6;  // |cos| between axes that must be at right angles
constexpr double kDegToRad = std::numbers::pi / 180.0;
/// Relative rounding of an anchor distance: a `min`/`max` this close to it counts as touching.
constexpr double kDistanceRounding = 1e-12;

/// The fields every joint may have, then the DESIGN §3 table row of each type (tables, not a list
/// built per joint: a 10⁶-link chain reads a million joints).
#define AFFIX_JOINT_COMMON_FIELDS "name", "type", "body1", "body2", "collide_connected", "stiffness", "damping"
constexpr std::string_view kBallFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor"};
constexpr std::string_view kHingeFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor", "axis", "limits_deg", "motor", "servo"};
constexpr std::string_view kPrismaticFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor", "axis", "limits", "motor", "servo"};
constexpr std::string_view kUniversalFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor", "axes"};
constexpr std::string_view kFixedFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor"};
constexpr std::string_view kConeTwistFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor", "frame", "limits_deg"};
constexpr std::string_view kDistanceFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor1", "anchor2", "length", "min", "max"};
constexpr std::string_view kSliderFields[] = {AFFIX_JOINT_COMMON_FIELDS, "point", "normal", "direction", "limits", "motor", "servo"};
constexpr std::string_view kCableFields[] = {AFFIX_JOINT_COMMON_FIELDS, "anchor", "axis", "axial", "shear", "bending", "torsion"};
#undef AFFIX_JOINT_COMMON_FIELDS

std::span<const std::string_view> allowed_fields(JointType type) {
  switch (type) {
    case JointType::ball: return kBallFields;
    case JointType::hinge: return kHingeFields;
    case JointType::prismatic: return kPrismaticFields;
    case JointType::universal: return kUniversalFields;
    case JointType::fixed: return kFixedFields;
    case JointType::cone_twist: return kConeTwistFields;
    case JointType::distance: return kDistanceFields;
    case JointType::slider: return kSliderFields;
    case JointType::cable: return kCableFields;
  }
  return kBallFields;  // not reached: every type is listed
}

JointType read_type(const JsonReader& value) {
  const std::string name = value.string();
  for (JointType type : kJointTypes) {
    if (name == to_string(type)) return type;
  }
  value.expected("a joint type (ball, hinge, prismatic, universal, fixed, cone_twist, distance, slider, cable)");
}

/// [min, max] with min ≤ max, in the file's unit.
std::array<double, 2> read_range(const JsonReader& value) {
  if (!value.is_array() || value.size() != 2) value.expected("[min, max]");
  const auto items = value.array(2);
  const std::array<double, 2> range{items[0].number(), items[1].number()};
  if (!(range[0] <= range[1])) value.expected("[min, max] with min ≤ max");
  return range;
}

/// A limit range that contains the initial value 0: angles and displacements are 0 at the initial
/// configuration (DESIGN §3), so a range that excludes 0 would start the joint outside its own limit,
/// which no solver can honour. Touching (min == 0 or max == 0) is allowed. `what` is e.g. "angle 0°".
std::array<double, 2> read_range_containing_zero(const JsonReader& value, std::string_view what) {
  const auto range = read_range(value);
  if (!(range[0] <= 0.0 && 0.0 <= range[1])) {
    value.expected("a range containing the initial " + std::string(what));
  }
  return range;
}

AngleRange read_angle_range_deg(const JsonReader& value) {
  const auto deg = read_range_containing_zero(value, "angle 0°");
  return {deg[0] * kDegToRad, deg[1] * kDegToRad};
}

std::array<double, 2> read_displacement_range(const JsonReader& value) {
  return read_range_containing_zero(value, "displacement 0 m");
}

/// Universal `axes` [a1, a2]: the cross of the joint needs them at right angles.
std::array<Vec3, 2> read_universal_axes(const JsonReader& value) {
  const auto items = value.array(2);
  const std::array<Vec3, 2> axes{items[0].direction(), items[1].direction()};
  if (!(std::abs(axes[0].dot(axes[1])) < kPerpendicularTolerance)) {
    value.expected("two perpendicular axes [a1, a2]");
  }
  return axes;
}

/// Cone-twist `frame` [x, y, z]: columns of a rotation, so that twist and swings are well defined.
Mat3 read_frame(const JsonReader& value) {
  const auto items = value.array(3);
  Mat3 frame;
  for (int i = 0; i < 3; ++i) frame.col(i) = items[static_cast<std::size_t>(i)].direction();
  const bool orthogonal = std::abs(frame.col(0).dot(frame.col(1))) < kPerpendicularTolerance &&
                          std::abs(frame.col(0).dot(frame.col(2))) < kPerpendicularTolerance &&
                          std::abs(frame.col(1).dot(frame.col(2))) < kPerpendicularTolerance;
  if (!orthogonal || !(frame.determinant() > 0.0)) {
    value.expected("three orthonormal right-handed axes [x, y, z]");
  }
  return frame;
}

void read_cone_limits(const JsonReader& value, JointDef& joint) {
  const ObjectReader obj(value, {"twist", "swing1", "swing2"});
  if (auto v = obj.find("twist")) joint.twist_limits = read_angle_range_deg(*v);
  if (auto v = obj.find("swing1")) joint.swing1_limits = read_angle_range_deg(*v);
  if (auto v = obj.find("swing2")) joint.swing2_limits = read_angle_range_deg(*v);
}

/// The anchors are world points at t = 0, so the initial distance is known here: `min` and `max` must
/// admit it (touching allowed, within rounding of the distance), and without `length` the anchors must
/// be apart: the rest length would be 0 (a ball joint's job), and a distance has no gradient at 0.
void read_distance(const ObjectReader& obj, JointDef& joint) {
  joint.anchor1 = obj.at("anchor1").vec3();
  const JsonReader anchor2 = obj.at("anchor2");
  joint.anchor2 = anchor2.vec3();
  const double initial = (joint.anchor1 - joint.anchor2).norm();
  if (!std::isfinite(initial)) anchor2.expected("a point within 1e308 m of anchor1");
  const double slack = kDistanceRounding * std::max(1.0, initial);
  if (auto v = obj.find("length")) joint.length = v->positive();
  if (!(initial > 0.0)) {
    // ‖anchor1 − anchor2‖ has no gradient where the anchors meet, so the penalty and the bounds
    // would start at a non-finite gradient whatever the rest length.
    anchor2.expected(joint.length ? "a point apart from anchor1 (the distance has no direction where they meet)"
                                  : "a point apart from anchor1 (the rest length would be 0; use a ball joint)");
  }
  const std::string initial_text = "the initial anchor distance " + number_text(initial) + " m";
  if (auto v = obj.find("min")) {
    joint.min_length = v->non_negative();
    if (*joint.min_length > initial + slack) v->expected("a number ≤ " + initial_text);
  }
  if (auto v = obj.find("max")) {
    joint.max_length = v->non_negative();
    if (joint.min_length && *joint.max_length < *joint.min_length) {
      v->expected("a number ≥ min (" + obj.at("min").render() + ")");
    }
    if (*joint.max_length < initial - slack) v->expected("a number ≥ " + initial_text);
  }
}

/// A point of body1 kept on a plane (`normal`) or a line (`direction`) of body2; limits need a line.
void read_slider(const ObjectReader& obj, JointDef& joint, const std::string& what) {
  joint.point = obj.at("point").vec3();
  const auto normal = obj.find("normal");
  const auto direction = obj.find("direction");
  if (normal && direction) direction->fail("expected only one of normal and direction, got both");
  if (!normal && !direction) {
    obj.self().fail("expected one of normal (a plane) or direction (a line) for " + what);
  }
  if (normal) joint.normal = normal->direction();
  if (direction) joint.direction = direction->direction();
  if (auto v = obj.find("limits")) {
    if (!direction) v->fail("only allowed with direction (limits are measured along the line)");
    joint.limits = read_displacement_range(*v);
  }
}

/// One DOF of a cable joint: {"stiffness": k > 0, "damping": b ≥ 0}, each optional (the default kept).
void read_cable_dof(const JsonReader& value, CableDof& dof) {
  const ObjectReader obj(value, {"stiffness", "damping"});
  if (auto v = obj.find("stiffness")) dof.stiffness = v->positive();
  if (auto v = obj.find("damping")) dof.damping = v->non_negative();
}

/// A cable joint's rows carry their own stiffness and damping per DOF, so the common `stiffness` and
/// `damping` (a penalty, a limit's Rayleigh damping) would be ambiguous: refused, naming the fields.
void read_cable(const ObjectReader& obj, JointDef& joint) {
  for (const char* common : {"stiffness", "damping"})
    if (auto v = obj.find(common))
      v->fail("not allowed on a cable joint (give axial, shear, bending and torsion their own {stiffness, damping})");
  joint.anchor = obj.at("anchor").vec3();
  joint.axis = obj.at("axis").direction();
  if (auto v = obj.find("axial")) read_cable_dof(*v, joint.axial);
  if (auto v = obj.find("shear")) read_cable_dof(*v, joint.shear);
  if (auto v = obj.find("bending")) read_cable_dof(*v, joint.bending);
  if (auto v = obj.find("torsion")) read_cable_dof(*v, joint.torsion);
}

/// A motor's speed or a servo's set point: 10⁶ rad/s (m/s), 10⁶ rad (m). Beyond it no mechanism is
/// meant (a hinge servo's set point is taken modulo a full turn, which at 10³⁰⁰ is no longer a number
/// of turns), and a step of 10³⁰⁰ rad/s only diverged (hostile16 #14).
constexpr double kDriveBound = 1e6;
double read_drive_value(const JsonReader& value) {
  const double x = value.number();
  if (!(std::abs(x) <= kDriveBound)) value.expected("a number within ±1e6");
  return x;
}

/// `motor` {velocity, max_force} or `servo` {position, stiffness, damping, max_force} on the joint's
/// free coordinate (scene.hpp): a hinge's angle, a prismatic joint's or a line slider's slide. One at
/// most: a velocity row and a PD row on the same coordinate would fight.
void read_drive(const ObjectReader& obj, JointDef& joint) {
  const auto motor = obj.find("motor"), servo = obj.find("servo");
  if (motor && servo) servo->fail("expected only one of motor and servo, got both");
  const auto drive = motor ? motor : servo;
  if (!drive) return;
  if (joint.type == JointType::slider && !joint.direction)
    drive->fail("only allowed with direction (a plane slider has two free coordinates)");
  if (motor) {
    const ObjectReader m(*motor, {"velocity", "max_force"});
    MotorDef def;
    def.velocity = read_drive_value(m.at("velocity"));
    if (auto v = m.find("max_force")) def.max_force = v->positive();
    joint.motor = def;
  } else {
    const ObjectReader m(*servo, {"position", "stiffness", "damping", "max_force"});
    ServoDef def;
    if (auto v = m.find("position")) def.position = read_drive_value(*v);
    def.stiffness = m.at("stiffness").positive();
    if (auto v = m.find("damping")) def.damping = v->non_negative();
    if (auto v = m.find("max_force")) def.max_force = v->positive();
    joint.servo = def;
  }
}

void read_type_fields(const ObjectReader& obj, JointDef& joint, const std::string& what) {
  switch (joint.type) {
    case JointType::ball:
    case JointType::fixed: joint.anchor = obj.at("anchor").vec3(); break;
    case JointType::hinge:
      joint.anchor = obj.at("anchor").vec3();
      joint.axis = obj.at("axis").direction();
      if (auto v = obj.find("limits_deg")) joint.angle_limits = read_angle_range_deg(*v);
      break;
    case JointType::prismatic:
      joint.anchor = obj.at("anchor").vec3();
      joint.axis = obj.at("axis").direction();
      if (auto v = obj.find("limits")) joint.limits = read_displacement_range(*v);
      break;
    case JointType::universal:
      joint.anchor = obj.at("anchor").vec3();
      joint.axes = read_universal_axes(obj.at("axes"));
      break;
    case JointType::cone_twist:
      joint.anchor = obj.at("anchor").vec3();
      joint.frame = read_frame(obj.at("frame"));
      if (auto v = obj.find("limits_deg")) read_cone_limits(*v, joint);
      break;
    case JointType::distance: read_distance(obj, joint); break;
    case JointType::slider: read_slider(obj, joint, what); break;
    case JointType::cable: read_cable(obj, joint); break;
  }
}

/// body1 is always a body; body2 may also be the world, and never body1 itself.
void read_bodies(const ObjectReader& obj, const BodyNames& bodies, JointDef& joint) {
  const auto resolve = [&](const JsonReader& value, bool world_allowed) {
    const std::string name = value.non_empty_string();
    if (name == "world" && !world_allowed) value.expected("a body name (only body2 may be \"world\")");
    const std::optional<int> index = bodies.find(name);
    if (!index) value.fail("unknown body '" + excerpt(name) + "' (expected the name of one of the bodies)");
    return std::pair{name, *index};
  };
  std::tie(joint.body1, joint.body1_index) = resolve(obj.at("body1"), false);
  const JsonReader body2 = obj.at("body2");
  std::tie(joint.body2, joint.body2_index) = resolve(body2, true);
  if (joint.body2 == joint.body1) body2.expected("a body other than body1");
}

}  // namespace

JointDef read_joint(const JsonReader& value, int index, const BodyNames& bodies) {
  ObjectReader obj(value);
  JointDef joint;
  joint.type = read_type(obj.at("type"));
  const std::string what = std::string("a ") + to_string(joint.type) + " joint";
  obj.allow_only(allowed_fields(joint.type), what);

  joint.name = "joint" + std::to_string(index);
  if (auto v = obj.find("name")) joint.name = v->name();
  read_bodies(obj, bodies, joint);
  read_type_fields(obj, joint, what);
  read_drive(obj, joint);
  if (auto v = obj.find("collide_connected")) joint.collide_connected = v->boolean();
  if (auto v = obj.find("stiffness")) joint.stiffness = v->positive();
  if (auto v = obj.find("damping")) joint.damping = v->non_negative();
  return joint;
}

}  // namespace affix
