#include "affix/joints/rigid_jacobian.hpp"

#include <cassert>
#include <cmath>
#include <limits>

#include <Eigen/LU>

namespace affix {
namespace {

/// One side of the joint at the current state: the frame origin x, its lever r = x − c, the frame axes
/// in world coordinates; `moves` is false for the world.
struct Side {
  Vec3 x = Vec3::Zero(), r = Vec3::Zero();
  Mat3 axes = Mat3::Identity();
  bool moves = false;
};

Side side(int body, const JointFrame& frame, const RigidPose& pose) {
  if (body < 0) return {frame.origin, Vec3::Zero(), frame.axes, false};
  const Vec3 r = pose.R * frame.origin;
  return {pose.c + r, r, pose.R * frame.axes, true};
}

/// Appends the parts of the header comment, one row each.
class Rows {
 public:
  Rows(int count, const Side& s1, const Side& s2) : s1_(s1), s2_(s2) {
    out_.value.resize(count);
    out_.J1.resize(count, 6);
    out_.J2.resize(s2.moves ? count : 0, 6);
  }

  void point(const Vec3& e) { add(e.dot(d()), e, s1_.r.cross(e), -e, -s2_.r.cross(e)); }

  void dot1(const Vec3& a1, const Vec3& u2) {
    const Vec3 n = a1.cross(u2);
    add(a1.dot(u2), Vec3::Zero(), n, Vec3::Zero(), -n);
  }

  void dot2(const Vec3& u2) { add(d().dot(u2), u2, s1_.r.cross(u2), -u2, u2.cross(s2_.r + d())); }

  void length(double L) {
    const Vec3 n = d().normalized();
    add(d().norm() - L, n, s1_.r.cross(n), -n, -s2_.r.cross(n));
  }

  /// Euler angle k (0 twist, 1 swing1, 2 swing2) of M = F₂ᵀF₁ and its rate (header comment).
  void angle(int k) {
    const Mat3 M = s2_.axes.transpose() * s1_.axes;
    const double twist = std::atan2(M(2, 1), M(2, 2));
    const double swing1 = std::atan2(-M(2, 0), std::hypot(M(2, 1), M(2, 2)));
    const double swing2 = std::atan2(M(1, 0), M(0, 0));
    const double values[] = {twist, swing1, swing2};
    const double c1 = std::cos(swing1), s1 = std::sin(swing1), c2 = std::cos(swing2), s2 = std::sin(swing2);
    Mat3 B;
    B.col(0) << c1 * c2, c1 * s2, -s1;  // R_z R_y e_x
    B.col(1) << -s2, c2, 0.0;           // R_z e_y
    B.col(2) << 0.0, 0.0, 1.0;          // e_z
    const Vec3 g = s2_.axes * B.transpose().inverse().col(k);
    add(values[k], Vec3::Zero(), g, Vec3::Zero(), -g);
  }

  /// The swing cone's s = θ − θ_lim of body 1's twist axis in body 2's frame (swing_cone.hpp).
  void cone(const SwingCone& spans) {
    const Vec3 x1 = s1_.axes.col(0);
    const SwingConeValue c = swing_cone(s2_.axes.transpose() * x1, spans);
    const Vec3 g = x1.cross(s2_.axes * c.gradient);
    add(c.value, Vec3::Zero(), g, Vec3::Zero(), -g);
  }

  RigidRows finish() {
    assert(row_ == out_.value.size());
    return out_;
  }

 private:
  Vec3 d() const { return s1_.x - s2_.x; }

  void add(double value, const Vec3& v1, const Vec3& w1, const Vec3& v2, const Vec3& w2) {
    out_.value[row_] = value;
    out_.J1.row(row_) << v1.transpose(), w1.transpose();
    if (s2_.moves) out_.J2.row(row_) << v2.transpose(), w2.transpose();
    ++row_;
  }

  const Side &s1_, &s2_;
  RigidRows out_;
  int row_ = 0;
};

}  // namespace

RigidPose initial_rigid_pose(const ModelBody& body) {
  return {body.position + body.rotation * body.center_of_mass, body.rotation};
}

int rigid_row_count(const JointDef& def) {
  switch (def.type) {
    case JointType::ball:
    case JointType::cone_twist: return 3;
    case JointType::hinge: return 5;
    case JointType::universal: return 4;
    case JointType::fixed:
    case JointType::cable: return 6;
    case JointType::prismatic: return 5;
    case JointType::slider: return def.normal ? 1 : 2;
    case JointType::distance: return !def.length && (def.min_length || def.max_length) ? 0 : 1;
  }
  return 0;
}

RigidJoint rigid_joint(const ModelJoint& joint, const std::vector<ModelBody>& bodies) {
  RigidJoint out;
  out.type = joint.def.type;
  out.body1 = joint.body1;
  out.body2 = joint.body2;
  out.frame1 = joint.frame1;
  out.frame2 = joint.frame2;
  if (joint.body1 >= 0) out.frame1.origin -= bodies[joint.body1].center_of_mass;
  if (joint.body2 >= 0) out.frame2.origin -= bodies[joint.body2].center_of_mass;
  out.length = joint.def.length.value_or((joint.def.anchor1 - joint.def.anchor2).norm());
  out.count = rigid_row_count(joint.def);
  const JointDef& def = joint.def;
  const auto limit = [&](RigidCoordinate coordinate, double min, double max) {
    out.limits[out.limit_count++] = {coordinate, min, max};
  };
  switch (def.type) {
    case JointType::hinge:
      if (def.angle_limits) limit(RigidCoordinate::twist, def.angle_limits->min, def.angle_limits->max);
      break;
    case JointType::cone_twist:
      if (def.twist_limits) limit(RigidCoordinate::twist, def.twist_limits->min, def.twist_limits->max);
      if (def.swing1_limits && def.swing2_limits &&
          makes_swing_cone(def.swing1_limits->min, def.swing1_limits->max, def.swing2_limits->min,
                           def.swing2_limits->max)) {
        // One cone for both swings (swing_cone.hpp): s = θ − θ_lim ≤ 0.
        out.cone = {def.swing1_limits->max, -def.swing1_limits->min, def.swing2_limits->max, -def.swing2_limits->min};
        limit(RigidCoordinate::cone, -std::numeric_limits<double>::infinity(), 0.0);
        break;
      }
      if (def.swing1_limits) limit(RigidCoordinate::swing1, def.swing1_limits->min, def.swing1_limits->max);
      if (def.swing2_limits) limit(RigidCoordinate::swing2, def.swing2_limits->min, def.swing2_limits->max);
      break;
    case JointType::prismatic:
    case JointType::slider:
      if (def.limits && !def.normal) limit(RigidCoordinate::slide, (*def.limits)[0], (*def.limits)[1]);
      break;
    case JointType::distance:
      if (out.count == 0)
        limit(RigidCoordinate::length, def.min_length.value_or(0.0),
              def.max_length.value_or(std::numeric_limits<double>::infinity()));
      break;
    default: break;
  }
  return out;
}

RigidRows rigid_rows(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2) {
  assert(joint.body1 >= 0);
  const Side s1 = side(joint.body1, joint.frame1, pose1), s2 = side(joint.body2, joint.frame2, pose2);
  const Vec3 x1 = s1.axes.col(0), y1 = s1.axes.col(1);
  const Vec3 x2 = s2.axes.col(0), y2 = s2.axes.col(1), z2 = s2.axes.col(2);
  Rows rows(joint.count, s1, s2);
  const auto points = [&] {
    for (int k = 0; k < 3; ++k) rows.point(Vec3::Unit(k));
  };
  switch (joint.type) {
    case JointType::ball:
    case JointType::cone_twist: points(); break;
    case JointType::hinge:
      points();
      rows.dot1(x1, y2);
      rows.dot1(x1, z2);
      break;
    case JointType::universal:
      points();
      rows.dot1(x1, y2);
      break;
    case JointType::fixed:
      points();
      rows.dot1(x1, y2);
      rows.dot1(x1, z2);
      rows.dot1(y1, z2);
      break;
    case JointType::cable:  // Andrews 2017's 6-D joint: the prismatic rows and the axial one
      rows.dot2(x2);
      [[fallthrough]];
    case JointType::prismatic:
      rows.dot2(y2);
      rows.dot2(z2);
      rows.dot1(x1, y2);
      rows.dot1(x1, z2);
      rows.dot1(y1, z2);
      break;
    case JointType::slider:
      if (joint.count == 1) {
        rows.dot2(x2);
      } else {
        rows.dot2(y2);
        rows.dot2(z2);
      }
      break;
    case JointType::distance:
      if (joint.count == 1) rows.length(joint.length);
      break;
  }
  return rows.finish();
}

namespace {

void add_coordinate(Rows& rows, const RigidJoint& joint, RigidCoordinate coordinate, const Side& s2) {
  switch (coordinate) {
    case RigidCoordinate::cone: rows.cone(joint.cone); break;
    case RigidCoordinate::twist: rows.angle(0); break;
    case RigidCoordinate::swing1: rows.angle(1); break;
    case RigidCoordinate::swing2: rows.angle(2); break;
    case RigidCoordinate::slide: rows.dot2(s2.axes.col(0)); break;
    case RigidCoordinate::length: rows.length(0.0); break;
  }
}

}  // namespace

RigidRows rigid_limit_coordinates(const RigidJoint& joint, const RigidPose& pose1, const RigidPose& pose2) {
  assert(joint.body1 >= 0);
  const Side s1 = side(joint.body1, joint.frame1, pose1), s2 = side(joint.body2, joint.frame2, pose2);
  Rows rows(joint.limit_count, s1, s2);
  for (int k = 0; k < joint.limit_count; ++k) add_coordinate(rows, joint, joint.limits[k].coordinate, s2);
  return rows.finish();
}

RigidRows rigid_coordinate(const RigidJoint& joint, RigidCoordinate coordinate, const RigidPose& pose1,
                           const RigidPose& pose2) {
  assert(joint.body1 >= 0);
  const Side s1 = side(joint.body1, joint.frame1, pose1), s2 = side(joint.body2, joint.frame2, pose2);
  Rows rows(1, s1, s2);
  add_coordinate(rows, joint, coordinate, s2);
  return rows.finish();
}

}  // namespace affix
