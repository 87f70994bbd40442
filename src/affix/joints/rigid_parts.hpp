#pragma once
// The parts each joint's rigid rows are made of, row by row, in the order rigid_rows() emits them
// (rigid_jacobian.hpp, its header table): what the geometric stiffness (geometric_stiffness.hpp) needs
// to know about a row besides its value and Jacobian. A test checks that rows rebuilt from these parts
// are rigid_rows()' own, so the two lists cannot drift apart.
#include <array>

#include "affix/joints/rigid_jacobian.hpp"

namespace affix {

/// One row: a point part along world axis `axis1` (C = e·d), a dot-1 part between axis `axis1` of body
/// 1's frame and axis `axis2` of body 2's (C = a₁·u₂), a dot-2 part along axis `axis2` of body 2's frame
/// (C = d·u₂), or the distance joint's length (C = ‖d‖ − L). Axes: 0 = x, 1 = y, 2 = z.
struct RigidPart {
  enum class Kind { point, dot1, dot2, length };
  Kind kind = Kind::point;
  int axis1 = 0, axis2 = 0;
};

struct RigidParts {
  std::array<RigidPart, 6> part;
  int count = 0;
};

/// The parts of the joint's rows, joint.count of them.
RigidParts rigid_parts(const RigidJoint& joint);

/// One side of a joint at the current state: its frame origin x (world), the lever r = x − c from the
/// body's centre of mass, the frame's axes in world coordinates; `moves` is false for the world.
struct RigidSide {
  Vec3 x = Vec3::Zero(), r = Vec3::Zero();
  Mat3 axes = Mat3::Identity();
  bool moves = false;
};

/// Side 1 (body1 at pose1) or side 2 (body2 at pose2, or the world when body2 < 0).
RigidSide rigid_side(int body, const JointFrame& frame, const RigidPose& pose);

}  // namespace affix
