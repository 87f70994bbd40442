#pragma once
// The model: a scene compiled once into what every solver back-end starts from (DESIGN §1). It is
// solver-neutral — meshes, mass properties, materials, prescribed motion, initial pose and twist, each
// joint's frame in the rest frame of both bodies, contact exclusions — and it has passed the checks
// that need geometry (bodies intersecting each other or the ground at t = 0), so `affix validate`
// needs nothing below this layer. A back-end builds its own state (12 affine DOFs, 6 rigid DOFs, …)
// from it and never reads the scene.
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/math/types.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// One body's solver-neutral facts. The rest frame is the shape's own (DESIGN §3: primitives centred
/// on the origin, meshes in file coordinates); the body origin is the rest frame's origin, which need
/// not be the centre of mass.
struct ModelBody {
  std::string name;
  std::shared_ptr<const TriangleMesh> mesh;  ///< rest frame; shared by every solver built on the model
  double volume = 0.0;                       ///< m³
  double mass = 0.0;                         ///< kg
  Vec3 center_of_mass = Vec3::Zero();        ///< rest frame
  Vec3 first_moment = Vec3::Zero();          ///< ∫ρ x̄ dV (= mass · centre of mass, as integrated)
  Mat3 inertia = Mat3::Zero();               ///< about the centre of mass, rest axes (kg·m²)
  Mat3 second_moment = Mat3::Zero();         ///< ∫ρ x̄ x̄ᵀ dV about the body origin, rest frame
  double bounding_radius = 0.0;              ///< max ‖x̄‖ over the mesh
  // Material.
  double stiffness = 1e9;                    ///< κ of the orthogonality potential (Pa)
  double friction = 0.5;
  double damping = 0.0;                      ///< Rayleigh k_d of its contacts (s), Chen 2022 §5.1
  // Motion.
  bool fixed = false;
  std::optional<Kinematic> kinematic;
  CollisionFilter collision;
  Vec3 position = Vec3::Zero();              ///< world position of the origin at t = 0
  Mat3 rotation = Mat3::Identity();          ///< world orientation at t = 0 (a rotation)
  Vec3 velocity = Vec3::Zero();              ///< world velocity of the origin at t = 0
  Vec3 angular_velocity = Vec3::Zero();      ///< world angular velocity at t = 0

  /// Bodies whose motion is prescribed rather than solved for.
  bool is_dirichlet() const { return fixed || kinematic.has_value(); }
};

/// A joint frame in one body's rest frame (in world coordinates for the world): the anchor point and
/// three orthonormal axes as columns. x is the joint's own axis: the hinge axis, the slide direction,
/// the universal joint's a1 (y = a2), the cone-twist twist axis (y, z the swing axes), the slider's
/// direction or normal, the distance joint's initial anchor-to-anchor direction; ball and fixed
/// joints take the world axes at t = 0.
struct JointFrame {
  Vec3 origin = Vec3::Zero();
  Mat3 axes = Mat3::Identity();
};

/// One joint, solver-neutral. `def` keeps the file's description (world coordinates at t = 0, limits,
/// stiffness, damping) for emitters that work from it; frame1 and frame2 carry the same joint into each
/// body's rest frame, which is what moves with the bodies. For a distance joint the two origins are the
/// two anchors; for a slider frame1's origin is `point` and frame2's the same world point in body2.
struct ModelJoint {
  JointDef def;
  int body1 = -1;           ///< model body index
  int body2 = -1;           ///< model body index, −1: the world
  JointFrame frame1, frame2;
};

struct Model {
  std::string name;                        ///< the scene's name
  std::filesystem::path file;              ///< the scene file (for messages)
  Settings settings;
  std::optional<Ground> ground;
  std::vector<ModelBody> bodies;           ///< scene order
  std::vector<ModelJoint> joints;          ///< scene order
  std::vector<ForceDef> forces;
  std::vector<std::array<int, 2>> excluded_pairs;  ///< i < j: joined with collide_connected false, or listed in the scene's exclusions; sorted

  /// Whether bodies i and j can touch: collision filters allow it (each one's group bit in the other's
  /// mask), no joint excludes the pair, and at least one of them moves.
  bool may_collide(int i, int j) const;
};

/// Compiles a scene: meshes and mass properties (throwing InputError for invalid or degenerate shapes
/// and masses, naming the JSON path), joint frames, exclusions, then the start checks
/// (start_checks.hpp). Nothing is simulated.
Model compile(const Scene& scene);

/// The bodies alone (meshes, mass properties, initial state), without joints or start checks.
std::vector<ModelBody> compile_bodies(const Scene& scene);

/// A joint's frames in the rest frames of its bodies (body −1: world coordinates).
ModelJoint compile_joint(const JointDef& def, const std::vector<ModelBody>& bodies);

}  // namespace affix
