// A joint's frame carried into the rest frame of each of its bodies (He 2026 §3 writes every joint
// between two body-fixed frames; so do the rigid-body methods, Tomcin 2014 §3, Andrews 2017 §4). The
// scene gives the joint in world coordinates at t = 0 (DESIGN §3); a body at pose (p, R) sees the
// world point x at x̄ = Rᵀ(x − p) and the world direction d as Rᵀd.
#include <cmath>

#include "affix/math/rotation.hpp"
#include "affix/model/model.hpp"

namespace affix {
namespace {

/// Right-handed orthonormal axes whose x is the unit vector x (and whose y is y, when y ⟂ x is given).
Mat3 axes_from(const Vec3& x, const Vec3& y) {
  Mat3 axes;
  axes.col(0) = x;
  axes.col(1) = y;
  axes.col(2) = x.cross(y);
  return axes;
}
Mat3 axes_from(const Vec3& x) { return axes_from(x, any_perpendicular(x)); }

/// The joint's world frame at t = 0, before it is carried into the bodies.
Mat3 world_axes(const JointDef& def) {
  switch (def.type) {
    case JointType::hinge:
    case JointType::prismatic:
    case JointType::cable: return axes_from(def.axis);
    case JointType::universal: return axes_from(def.axes[0], def.axes[1]);
    case JointType::cone_twist: return def.frame;
    case JointType::slider: return axes_from(def.direction ? *def.direction : def.normal.value_or(Vec3::UnitZ()));
    case JointType::distance: {
      const Vec3 d = def.anchor2 - def.anchor1;
      return d.norm() > 0.0 ? axes_from(d.normalized()) : Mat3::Identity();
    }
    case JointType::ball:
    case JointType::fixed: return Mat3::Identity();
  }
  return Mat3::Identity();
}

JointFrame in_body(int body, const std::vector<ModelBody>& bodies, const Vec3& origin, const Mat3& axes) {
  if (body < 0) return {origin, axes};
  const ModelBody& b = bodies[body];
  return {b.rotation.transpose() * (origin - b.position), b.rotation.transpose() * axes};
}

}  // namespace

ModelJoint compile_joint(const JointDef& def, const std::vector<ModelBody>& bodies) {
  ModelJoint joint;
  joint.def = def;
  joint.body1 = def.body1_index;
  joint.body2 = def.body2_index;
  const Mat3 axes = world_axes(def);
  Vec3 origin1 = def.anchor, origin2 = def.anchor;
  if (def.type == JointType::distance) origin1 = def.anchor1, origin2 = def.anchor2;
  if (def.type == JointType::slider) origin1 = origin2 = def.point;
  joint.frame1 = in_body(joint.body1, bodies, origin1, axes);
  joint.frame2 = in_body(joint.body2, bodies, origin2, axes);
  return joint;
}

}  // namespace affix
