#include "affix/import/map_joints.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <set>

#include "affix/error.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/geometry/mesh_file.hpp"

namespace affix {
namespace {

class JointNames {
 public:
  std::string take(const std::string& wanted) {
    std::string name = wanted;
    for (int k = 2; !used_.insert(name).second; ++k) name = wanted + "_" + std::to_string(k);
    return name;
  }

 private:
  std::set<std::string> used_;
};

/// A limited ball: MuJoCo bounds the angle θ of the joint's whole rotation (its quaternion from qpos0),
/// θ ≤ range[1] (range[0] is unused), a cone about every axis at once. affix's nearest joint is the
/// cone_twist, R = R_z(swing2)·R_y(swing1)·R_x(twist), each angle in its own range: twist, swing1 and
/// swing2 in [−r, r] hold any rotation about one of the frame's axes exactly as MuJoCo does, and admit
/// combined rotations up to √3·r where MuJoCo stops at r. The frame's x is the joint's `axis` (MuJoCo
/// ignores it for a ball; default z). Beyond r = 180° MuJoCo bounds nothing: the joint stays a ball.
/// swing1 passes the gimbal at ±90°, so it is held to kMaxSwing1 there.
void ball_cone(double r, JointDef& def) {
  constexpr double kMaxSwing1 = 89.0 * std::numbers::pi / 180.0;
  if (!(r > 0.0) || r >= std::numbers::pi) return;
  def.type = JointType::cone_twist;
  const Vec3 x = def.axis.normalized(), y = x.unitOrthogonal();
  def.frame.col(0) = x;
  def.frame.col(1) = y;
  def.frame.col(2) = x.cross(y);
  def.twist_limits = AngleRange{-r, r};
  def.swing1_limits = AngleRange{-std::min(r, kMaxSwing1), std::min(r, kMaxSwing1)};
  def.swing2_limits = AngleRange{-r, r};
}

/// Limits in affix are measured from the initial configuration, MuJoCo's from qpos = 0; the import
/// starts at qpos0, so a range [lo, hi] becomes [lo − qpos0, hi − qpos0].
JointDef joint_def(const ImportContext& ctx, int j) {
  const mjModel& m = ctx.mj.model();
  JointDef def;
  def.anchor = ctx.mj.joint_anchor(j);
  def.axis = ctx.mj.joint_axis(j);
  const double q0 = m.qpos0[m.jnt_qposadr[j]];
  const double lo = m.jnt_range[2 * j] - q0, hi = m.jnt_range[2 * j + 1] - q0;
  switch (m.jnt_type[j]) {
    case mjJNT_HINGE:
      def.type = JointType::hinge;
      if (m.jnt_limited[j]) def.angle_limits = AngleRange{lo, hi};
      break;
    case mjJNT_SLIDE:
      def.type = JointType::prismatic;
      if (m.jnt_limited[j]) def.limits = std::array<double, 2>{lo, hi};
      break;
    default:  // ball (free joints make no joint)
      def.type = JointType::ball;
      if (m.jnt_limited[j]) ball_cone(m.jnt_range[2 * j + 1], def);
      break;
  }
  return def;
}

/// The passive joint properties MuJoCo simulates and affix does not, counted per joint.
void count_unmapped(const mjModel& m, int j, Unmapped& unmapped) {
  const int dof = m.jnt_dofadr[j];
  if (m.jnt_stiffness[j] != 0.0) unmapped.add("joint springs (stiffness)");
  if (m.dof_damping[dof] != 0.0) unmapped.add("joint damping");
  if (m.dof_armature[dof] != 0.0) unmapped.add("joint armature");
  if (m.dof_frictionloss[dof] != 0.0) unmapped.add("joint friction loss");
  if (m.jnt_type[j] == mjJNT_BALL && m.jnt_limited[j]) {
    const double r = m.jnt_range[2 * j + 1];
    if (r >= 0.5 * std::numbers::pi && r < std::numbers::pi)
      unmapped.add("ball-joint ranges of 90° or more (held below 89° about the cone_twist frame's y)");
  }
}

/// The volume of a compound's parts by their smooth formulas (overlaps counted twice): a scale for
/// stiffness, not a mass property.
double parts_volume(const CompoundShape& compound) {
  constexpr double pi = std::numbers::pi;
  double volume = 0.0;
  for (const ShapePart& part : compound.parts) {
    const double scale = part.scale.prod();
    if (const auto* s = std::get_if<SphereShape>(&part.shape)) volume += scale * 4.0 / 3.0 * pi * std::pow(s->radius, 3);
    if (const auto* s = std::get_if<CapsuleShape>(&part.shape))
      volume += scale * (pi * s->radius * s->radius * s->length + 4.0 / 3.0 * pi * std::pow(s->radius, 3));
    if (const auto* s = std::get_if<CylinderShape>(&part.shape)) volume += scale * pi * s->radius * s->radius * s->length;
    if (const auto* s = std::get_if<BoxShape>(&part.shape)) volume += scale * s->size.prod();
    if (const auto* s = std::get_if<MeshShape>(&part.shape); s && s->file.empty())
      volume += scale * std::abs(mass_properties(inline_mesh(s->vertices, s->triangles)).volume);
  }
  return volume;
}

/// A massless-in-spirit body between two joints of one MuJoCo body: kVirtualLinkFraction of the
/// body's mass and inertia, centred on the joint anchor, a small sphere that touches nothing. Its
/// orthogonality stiffness κ·V is the body's: with its own small volume it would shear under the
/// joint loads it passes on, and the joints' angles (measured between the links' frames) with it.
BodyDef virtual_link(const BodyDef& body, const Vec3& anchor, int k) {
  BodyDef link;
  link.name = body.name + "/virtual" + std::to_string(k);
  const Inertial& inertial = *body.inertial;
  link.inertial = Inertial{kVirtualLinkFraction * inertial.mass, Vec3::Zero(), kVirtualLinkFraction * inertial.inertia};
  // Half the body's thinnest part: inside the body around the joint, and as large as that allows,
  // because the ipc solver measures a hinge's range by a chord at the link's radius, which must be
  // long enough for the range's ends to lie more than its barrier width d̂ from the start (else it
  // widens the range by the difference).
  double radius = std::numeric_limits<double>::infinity();
  if (const auto* compound = std::get_if<CompoundShape>(&body.shape)) {
    for (const ShapePart& part : compound->parts) {
      if (const auto* s = std::get_if<SphereShape>(&part.shape)) radius = std::min(radius, 0.5 * s->radius * part.scale.minCoeff());
      if (const auto* s = std::get_if<CapsuleShape>(&part.shape)) radius = std::min(radius, 0.5 * s->radius);
      if (const auto* s = std::get_if<CylinderShape>(&part.shape)) radius = std::min(radius, 0.5 * s->radius);
      if (const auto* s = std::get_if<BoxShape>(&part.shape)) radius = std::min(radius, 0.25 * s->size.minCoeff());
      if (const auto* s = std::get_if<MeshShape>(&part.shape); s && !s->vertices.empty()) {
        Vec3 lo = s->vertices.front(), hi = lo;
        for (const Vec3& v : s->vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
        radius = std::min(radius, 0.25 * (hi - lo).cwiseProduct(part.scale).minCoeff());
      }
    }
  }
  if (!std::isfinite(radius)) radius = 0.01;
  link.shape = SphereShape{radius, kImportResolution};
  if (const auto* compound = std::get_if<CompoundShape>(&body.shape)) {
    const double ratio = parts_volume(*compound) / (4.0 / 3.0 * std::numbers::pi * std::pow(radius, 3));
    link.stiffness = body.stiffness * std::max(1.0, ratio);
  }
  link.position = anchor;
  link.rotation = body.rotation;
  link.collision = {0, 0};
  return link;
}

/// A weld's target pose: eq_data[3..5] is body2's origin in body1's frame and eq_data[6..9] its
/// orientation, q₁⁻¹q₂ (MuJoCo 2.2.2, fills them from qpos0 when the file gives no `relpose`). affix's
/// fixed joint holds the relative pose the bodies start in, so a weld that asks for another one is
/// refused rather than imported as something else.
void check_weld_relpose(const ImportContext& ctx, int e) {
  const mjModel& m = ctx.mj.model();
  const int b1 = m.eq_obj1id[e], b2 = m.eq_obj2id[e];
  const Quat q1 = ctx.mj.body_rotation(b1), q2 = ctx.mj.body_rotation(b2);
  const Vec3 start_pos = q1.conjugate() * (ctx.mj.body_position(b2) - ctx.mj.body_position(b1));
  const Quat start_rot = q1.conjugate() * q2;
  const mjtNum* data = m.eq_data + mjNEQDATA * e;
  const Vec3 rel_pos = mj_vec(data + 3);
  const Quat rel_rot = mj_quat(data + 6);
  const double distance = (rel_pos - start_pos).norm(), angle = rel_rot.angularDistance(start_rot);
  constexpr double kTolerance = 1e-6;  // m and rad: a relpose written out by hand to six digits passes
  if (distance <= kTolerance && angle <= kTolerance) return;
  const auto fmt = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return std::string(text);
  };
  throw InputError(ctx.scene.file.string() + ": equality '" + ctx.mj.name(mjOBJ_EQUALITY, e, "equality") +
                   "' (weld of '" + ctx.mj.name(mjOBJ_BODY, b1, "body") + "' and '" +
                   ctx.mj.name(mjOBJ_BODY, b2, "body") + "'): its relpose differs from the bodies' relative pose at qpos0 by " +
                   fmt(distance) + " m and " + fmt(angle * 180.0 / std::numbers::pi) +
                   "°; expected a weld that holds the pose the bodies start in (affix's fixed joint holds the "
                   "initial relative pose): place the bodies in that pose or leave relpose out");
}

}  // namespace

void map_joints(ImportContext& ctx) {
  const mjModel& m = ctx.mj.model();
  JointNames names;
  for (int b = 1; b < m.nbody; ++b) {
    const int child = ctx.body_index[static_cast<std::size_t>(b)];
    const int parent_id = m.body_parentid[b];
    const std::string parent = ctx.body_name(parent_id);
    std::vector<int> joints;
    for (int j = m.body_jntadr[b]; j >= 0 && j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
      count_unmapped(m, j, ctx.unmapped);
      if (m.jnt_type[j] != mjJNT_FREE) joints.push_back(j);
    }
    const bool free = m.body_jntnum[b] > 0 && joints.empty();
    if (free || ctx.scene.bodies[static_cast<std::size_t>(child)].fixed) continue;
    if (joints.empty()) {  // welded to a moving parent: MuJoCo moves the two as one
      JointDef weld;
      weld.name = names.take(ctx.scene.bodies[static_cast<std::size_t>(child)].name + "/weld");
      weld.type = JointType::fixed;
      weld.anchor = ctx.mj.body_position(b);
      weld.body1 = ctx.scene.bodies[static_cast<std::size_t>(child)].name;
      weld.body2 = parent;
      ctx.scene.joints.push_back(weld);
      continue;
    }
    // MuJoCo applies a body's joints in order from the parent outwards (the second axis is carried by
    // the first joint's rotation), so the chain is parent —j₁— v₁ —j₂— … —jₖ— body.
    std::string previous = parent;
    for (std::size_t k = 0; k < joints.size(); ++k) {
      JointDef def = joint_def(ctx, joints[k]);
      def.name = names.take(ctx.mj.name(mjOBJ_JOINT, joints[k], "joint"));
      def.body2 = previous;
      if (k + 1 == joints.size()) {
        def.body1 = ctx.scene.bodies[static_cast<std::size_t>(child)].name;
      } else {
        BodyDef link = virtual_link(ctx.scene.bodies[static_cast<std::size_t>(child)], def.anchor, static_cast<int>(k + 1));
        link.name = ctx.unique_body_name(link.name);
        def.body1 = link.name;
        ctx.scene.bodies.push_back(std::move(link));
      }
      previous = def.body1;
      ctx.scene.joints.push_back(std::move(def));
    }
    // MuJoCo never lets a body touch its parent; the virtual links now stand between them.
    if (joints.size() > 1 && parent != "world") {
      ctx.scene.exclusions.push_back({ctx.scene.bodies[static_cast<std::size_t>(child)].name, parent, -1, -1});
    }
  }
}

void map_equalities(ImportContext& ctx) {
  const mjModel& m = ctx.mj.model();
  for (int e = 0; e < m.neq; ++e) {
    if (!m.eq_active[e]) {
      ctx.unmapped.add("inactive equality constraints");
      continue;
    }
    if (m.eq_type[e] != mjEQ_CONNECT && m.eq_type[e] != mjEQ_WELD) {
      ctx.unmapped.add("joint and tendon equality constraints");
      continue;
    }
    int b1 = m.eq_obj1id[e], b2 = m.eq_obj2id[e];
    if (m.eq_type[e] == mjEQ_WELD) check_weld_relpose(ctx, e);
    // eq_data[0..2]: connect's anchor in body1's frame. A weld holds the pose the bodies start in.
    const Vec3 local = mj_vec(m.eq_data + mjNEQDATA * e);
    const Vec3 anchor = ctx.mj.body_position(b1) + ctx.mj.body_rotation(b1) * local;
    if (b1 == 0) std::swap(b1, b2);  // body1 must be a body; body2 may be the world
    JointDef def;
    def.name = ctx.mj.name(mjOBJ_EQUALITY, e, "equality");
    def.type = m.eq_type[e] == mjEQ_CONNECT ? JointType::ball : JointType::fixed;
    def.anchor = anchor;
    def.body1 = ctx.body_name(b1);
    def.body2 = ctx.body_name(b2);
    if (def.body1 == "world") continue;  // both ends on the world: nothing to hold
    ctx.scene.joints.push_back(std::move(def));
  }
}

}  // namespace affix
