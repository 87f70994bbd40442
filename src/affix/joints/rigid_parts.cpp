#include "affix/joints/rigid_parts.hpp"

namespace affix {
namespace {

constexpr RigidPart point(int k) { return {RigidPart::Kind::point, k, 0}; }
constexpr RigidPart dot1(int a1, int u2) { return {RigidPart::Kind::dot1, a1, u2}; }
constexpr RigidPart dot2(int u2) { return {RigidPart::Kind::dot2, 0, u2}; }

}  // namespace

RigidParts rigid_parts(const RigidJoint& joint) {
  RigidParts out;
  const auto add = [&](RigidPart p) { out.part[out.count++] = p; };
  const auto points = [&] {
    for (int k = 0; k < 3; ++k) add(point(k));
  };
  switch (joint.type) {
    case JointType::ball:
    case JointType::cone_twist: points(); break;
    case JointType::hinge: points(), add(dot1(0, 1)), add(dot1(0, 2)); break;
    case JointType::universal: points(), add(dot1(0, 1)); break;
    case JointType::fixed: points(), add(dot1(0, 1)), add(dot1(0, 2)), add(dot1(1, 2)); break;
    case JointType::prismatic:
      add(dot2(1)), add(dot2(2)), add(dot1(0, 1)), add(dot1(0, 2)), add(dot1(1, 2));
      break;
    case JointType::slider:
      if (joint.count == 1) add(dot2(0));
      else add(dot2(1)), add(dot2(2));
      break;
    case JointType::distance:
      if (joint.count == 1) add({RigidPart::Kind::length, 0, 0});
      break;
    case JointType::cable:
      add(dot2(0)), add(dot2(1)), add(dot2(2)), add(dot1(0, 1)), add(dot1(0, 2)), add(dot1(1, 2));
      break;
  }
  return out;
}

RigidSide rigid_side(int body, const JointFrame& frame, const RigidPose& pose) {
  if (body < 0) return {frame.origin, Vec3::Zero(), frame.axes, false};
  const Vec3 r = pose.R * frame.origin;
  return {pose.c + r, r, pose.R * frame.axes, true};
}

}  // namespace affix
