#pragma once
// The scene model: plain, validated data read from a scene file (DESIGN §3). The member initialisers
// below are the only home of the defaults (STYLE.md practice 8); the README's scene reference repeats
// them for users, and tests/solvers/test_readme_defaults.cpp checks that the two agree.
#include <array>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "affix/math/types.hpp"

namespace affix {

// ---------------------------------------------------------------- settings

enum class Integrator { implicit_euler, bdf2 };

/// The names `settings.solver` accepts: a new solver back-end adds its name here.
inline constexpr std::string_view kSolverNames[] = {"ipc", "mabd", "impulse", "compliant"};

struct Settings {
  double dt = 0.01;                            ///< time step h (s)
  double duration = 1.0;                       ///< simulated time (s)
  Vec3 gravity{0.0, 0.0, -9.81};               ///< m/s²
  std::string solver = "ipc";
  Integrator integrator = Integrator::implicit_euler;
  std::optional<double> output_fps;            ///< frames per second written; absent: every step
  /// `settings.<solver>` as the file wrote it, by solver name (a JSON object each). Each solver reads
  /// and validates its own block (solvers/<name>/), where its fields and defaults live: the scene
  /// layer knows no solver's settings, so a back-end adds settings without touching it.
  std::map<std::string, nlohmann::json, std::less<>> solver_settings;
};

// ---------------------------------------------------------------- ground

/// Half-space z ≥ height.
struct Ground {
  double height = 0.0;
  double friction = 0.5;
  double damping = 0.0;   ///< Rayleigh k_d of its contacts (s), Chen 2022 §5.1
};

// ---------------------------------------------------------------- shapes
// Rest-frame geometry, centred on the body origin (meshes keep their file coordinates).

struct BoxShape {
  Vec3 size{1.0, 1.0, 1.0};   ///< full edge lengths (m)
  int resolution = 1;         ///< segments per edge
};
struct SphereShape {
  double radius = 0.5;
  int resolution = 24;        ///< segments around the equator
};
struct CapsuleShape {         ///< along body z; length excludes the caps
  double radius = 0.5;
  double length = 1.0;
  int resolution = 24;
};
struct CylinderShape {        ///< along body z
  double radius = 0.5;
  double length = 1.0;
  int resolution = 24;
};
struct TorusShape {           ///< in the body xy-plane
  double major = 1.0;
  double minor = 0.25;
  int resolution = 24;        ///< segments around the major circle (minor circle: half as many)
};
/// A triangle mesh from a file (OBJ, or STL, DAE, PLY, OFF through Assimp) or given inline (an
/// imported model's compiled mesh): exactly one of `file` and `vertices` + `triangles` is set.
struct MeshShape {
  std::filesystem::path file;    ///< resolved against the scene file's directory; empty: inline
  Vec3 scale{1.0, 1.0, 1.0};
  std::vector<Vec3> vertices;                  ///< inline form: the shape's own coordinates (m)
  std::vector<std::array<int, 3>> triangles;   ///< inline form: 0-based, counter-clockwise seen from outside
};

struct ShapePart;
/// Several shapes welded into one body (an imported MJCF body with several geoms): the body's surface
/// is the parts' surfaces together, each placed in the body's rest frame. Parts may overlap (the mass
/// of an overlap then counts twice when it comes from a density; `inertial` gives it exactly).
struct CompoundShape {
  std::vector<ShapePart> parts;   ///< at least one; no part is itself a compound
};

using Shape =
    std::variant<BoxShape, SphereShape, CapsuleShape, CylinderShape, TorusShape, MeshShape, CompoundShape>;

/// One part of a compound: its shape scaled per axis in its own frame (a sphere scaled (a, b, c) is an
/// ellipsoid), then rotated and placed: x̄ = position + rotation · (scale ⊙ x̄_part).
struct ShapePart {
  Shape shape;
  Vec3 position = Vec3::Zero();
  Quat rotation = Quat::Identity();
  Vec3 scale{1.0, 1.0, 1.0};
};

// ---------------------------------------------------------------- bodies

struct Keyframe {
  double time = 0.0;
  Vec3 position = Vec3::Zero();
  Quat rotation = Quat::Identity();
};

/// Prescribed motion: constant twist, or keyframes (linear in position, slerp in rotation, held after
/// the last key). Exactly one of the two forms is set.
struct Kinematic {
  Vec3 velocity = Vec3::Zero();            ///< world velocity of the body origin (m/s)
  Vec3 angular_velocity = Vec3::Zero();    ///< world angular velocity (rad/s)
  std::vector<Keyframe> keyframes;         ///< non-empty: keyframe mode, times strictly increasing
};

struct CollisionFilter {
  int group = 1;    ///< bit(s) this body belongs to
  int mask = -1;    ///< bits it collides with
};

/// Mass properties given rather than integrated from the shape (an imported model's inertial): rest
/// frame, inertia about the centre of mass in rest axes.
struct Inertial {
  double mass = 1.0;                        ///< kg
  Vec3 center_of_mass = Vec3::Zero();       ///< rest frame (m)
  Mat3 inertia = Mat3::Identity();          ///< kg·m², symmetric, about the centre of mass
};

struct BodyDef {
  std::string name;
  Shape shape = BoxShape{};
  double density = 1000.0;                 ///< kg/m³ (ignored when mass is set)
  std::optional<double> mass;              ///< kg; overrides density
  std::optional<Inertial> inertial;        ///< overrides density and mass: the mass properties as given
  Vec3 position = Vec3::Zero();            ///< world position of the body origin at t = 0
  Quat rotation = Quat::Identity();        ///< normalised
  Vec3 velocity = Vec3::Zero();            ///< world velocity of the body origin (m/s)
  Vec3 angular_velocity = Vec3::Zero();    ///< world angular velocity (rad/s)
  double friction = 0.5;
  double damping = 0.0;                    ///< Rayleigh k_d of its contacts (s), Chen 2022 §5.1
  double stiffness = 1e9;                  ///< κ of κ·V·‖AAᵀ − I‖² (Pa)
  bool fixed = false;
  std::optional<Kinematic> kinematic;
  CollisionFilter collision;
};

// ---------------------------------------------------------------- joints

enum class JointType { ball, hinge, prismatic, universal, fixed, cone_twist, distance, slider, cable };

/// One degree of freedom of a `cable` joint (Andrews 2017, App. A "Flexible cable joint"): a compliant
/// row of stiffness k and damping b, λ = −kφ − bφ̇ (Eq. 14 with C = 1/k).
struct CableDof {
  double stiffness = 0.0;  ///< N/m (axial, shear) or N·m/rad (bending, torsion), > 0
  double damping = 0.0;    ///< N·s/m or N·m·s/rad, ≥ 0
  friend bool operator==(const CableDof&, const CableDof&) = default;
};

/// A velocity motor on a joint's one free coordinate s (hinge: the angle about `axis`, rad; prismatic,
/// and slider along `direction`: the slide, m), as Bullet's joint motors and MuJoCo's velocity
/// actuators: the row ṡ = velocity, its force (N·m or N) bounded by ±max_force.
struct MotorDef {
  double velocity = 0.0;  ///< target ṡ, rad/s or m/s
  double max_force = std::numeric_limits<double>::infinity();  ///< N·m or N, > 0; absent: unbounded
  friend bool operator==(const MotorDef&, const MotorDef&) = default;
};

/// An implicit PD servo on the same coordinate (MuJoCo's position actuator, Bullet's servo): the
/// force −stiffness·(s − position) − damping·ṡ, evaluated at the end of the step.
struct ServoDef {
  double position = 0.0;   ///< set point s*, rad or m from the initial configuration (s = 0 at t = 0)
  double stiffness = 0.0;  ///< k, N·m/rad or N/m, > 0
  double damping = 0.0;    ///< d, N·m·s/rad or N·s/m, ≥ 0
  double max_force = std::numeric_limits<double>::infinity();  ///< N·m or N, > 0; absent: unbounded
  friend bool operator==(const ServoDef&, const ServoDef&) = default;
};

struct AngleRange {               ///< degrees in the file, radians here
  double min = 0.0;
  double max = 0.0;
};

/// One joint; which fields matter depends on the type (DESIGN §3 table). All vectors are world
/// coordinates at the initial configuration; axes and frame columns are normalised.
struct JointDef {
  std::string name;
  JointType type = JointType::ball;
  std::string body1;
  std::string body2;               ///< a body name or "world"
  int body1_index = -1;            ///< index into Scene::bodies
  int body2_index = -1;            ///< -1: world
  Vec3 anchor = Vec3::Zero();      ///< ball, hinge, prismatic, universal, fixed, cone_twist
  Vec3 axis = Vec3::UnitX();       ///< hinge (rotation axis), prismatic (slide direction)
  std::array<Vec3, 2> axes{Vec3::UnitX(), Vec3::UnitY()};  ///< universal: a1 in body1, a2 in body2
  Mat3 frame = Mat3::Identity();   ///< cone_twist: columns x (twist axis), y (swing1), z (swing2)
  Vec3 anchor1 = Vec3::Zero();     ///< distance: point on body1
  Vec3 anchor2 = Vec3::Zero();     ///< distance: point on body2
  std::optional<double> length;    ///< distance: rest length (absent: initial distance)
  std::optional<double> min_length;   ///< distance: `min` (m)
  std::optional<double> max_length;   ///< distance: `max` (m)
  Vec3 point = Vec3::Zero();       ///< slider: point on body1
  std::optional<Vec3> normal;      ///< slider: stay on the plane through point with this normal
  std::optional<Vec3> direction;   ///< slider: stay on the line through point along this direction
  std::optional<AngleRange> angle_limits;     ///< hinge `limits_deg` (radians)
  std::optional<std::array<double, 2>> limits;  ///< prismatic, slider `limits` (m)
  std::optional<AngleRange> twist_limits;     ///< cone_twist `limits_deg.twist` (radians)
  std::optional<AngleRange> swing1_limits;    ///< cone_twist `limits_deg.swing1` (radians)
  std::optional<AngleRange> swing2_limits;    ///< cone_twist `limits_deg.swing2` (radians)
  bool collide_connected = false;
  std::optional<double> stiffness;  ///< penalty k for penalty joints (solver default when absent)
  std::optional<double> damping;    ///< Rayleigh k_d of the limits (solver default when absent)
  // cable (anchor, axis = the cable's direction): the per-DOF rows of a relaxed 6-D joint. Defaults:
  // Andrews 2017 §5.2's cable, axial 1e12, bending and torsion 10; shear as stiff as the axis.
  CableDof axial{1e12, 0.0};       ///< stretch along the axis
  CableDof shear{1e12, 0.0};       ///< sideways slip, both directions across the axis
  CableDof bending{10.0, 0.0};     ///< rotation about the two axes across the cable
  CableDof torsion{10.0, 0.0};     ///< twist about the axis
  // hinge, prismatic, slider with `direction`: at most one drive of the joint's free coordinate.
  std::optional<MotorDef> motor;
  std::optional<ServoDef> servo;
};

// ---------------------------------------------------------------- forces

/// A timed external force and/or torque on one body, active for start ≤ t < end.
struct ForceDef {
  std::string body;
  int body_index = -1;
  Vec3 force = Vec3::Zero();       ///< N, world
  Vec3 torque = Vec3::Zero();      ///< N·m, world
  std::optional<Vec3> point;       ///< world point at t = 0, moving with the body (absent: origin)
  double start = 0.0;
  double end = std::numeric_limits<double>::infinity();
};

// ---------------------------------------------------------------- contact exclusions

/// A pair of bodies that never touch, whether or not a joint joins them (MJCF's <exclude>, and an
/// imported parent and child that a chain of virtual links separates).
struct ExclusionDef {
  std::string body1, body2;
  int body1_index = -1;
  int body2_index = -1;
};

// ---------------------------------------------------------------- scene

struct Scene {
  std::string name;                       ///< scene file stem
  std::filesystem::path file;             ///< the file it came from (empty if built in code)
  Settings settings;
  std::optional<Ground> ground;
  std::vector<BodyDef> bodies;
  std::vector<JointDef> joints;
  std::vector<ForceDef> forces;
  std::vector<ExclusionDef> exclusions;

  /// Index of a body by name, -1 for "world", nullopt if unknown.
  std::optional<int> body_index(const std::string& name) const;
};

const char* to_string(JointType type);
const char* to_string(Integrator integrator);

}  // namespace affix
