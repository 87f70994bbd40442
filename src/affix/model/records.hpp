#pragma once
// What a solver reports about its joints and contacts, solver-neutrally, so that the run output
// (joints.csv, contacts.csv, DESIGN §4) and the tests can measure joint error and contact from outside.
#include <vector>

#include "affix/model/body_state.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// One joint at one instant: its frame as carried by each of its two bodies (world coordinates).
/// For an exact joint the two anchors coincide (a distance joint's are `length` apart, a slider's
/// differ along its free directions); the axes are each frame's x axis.
struct JointRecord {
  int joint = -1;                    ///< model joint index
  Vec3 anchor1 = Vec3::Zero();       ///< frame1's origin carried by body1
  Vec3 anchor2 = Vec3::Zero();       ///< frame2's origin carried by body2 (or fixed in the world)
  Vec3 axis1 = Vec3::UnitX();        ///< frame1's x axis carried by body1
  Vec3 axis2 = Vec3::UnitX();        ///< frame2's x axis carried by body2
};

/// One contact at one instant. The normal points from body2 (or the ground) towards body1; `distance`
/// is the gap (> 0: apart, as a barrier method keeps it) or minus the penetration depth.
struct ContactRecord {
  int body1 = -1;                    ///< model body index
  int body2 = -1;                    ///< model body index, −1: the ground
  Vec3 point = Vec3::Zero();         ///< world point midway between the two closest points
  Vec3 normal = Vec3::UnitZ();       ///< unit, from body2 towards body1
  double distance = 0.0;             ///< m
  double force = 0.0;                ///< normal force magnitude (N)
};

/// The joint records of every model joint at the given poses: each frame carried by its body
/// (x = A·x̄ + p for points, A·d for axes, normalised); world frames stay where they are.
std::vector<JointRecord> joint_records(const Model& model, const std::vector<BodyPose>& poses);

}  // namespace affix
