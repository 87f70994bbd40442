#include "affix/model/records.hpp"

namespace affix {
namespace {

/// A frame's origin and x axis where a body at `pose` carries them (the world carries them nowhere).
void carry(const JointFrame& frame, int body, const std::vector<BodyPose>& poses, Vec3& anchor, Vec3& axis) {
  if (body < 0) {
    anchor = frame.origin, axis = frame.axes.col(0);
    return;
  }
  const BodyPose& pose = poses[body];
  anchor = pose.A * frame.origin + pose.p;
  const Vec3 a = pose.A * frame.axes.col(0);
  axis = a.norm() > 0.0 ? Vec3(a.normalized()) : a;
}

}  // namespace

std::vector<JointRecord> joint_records(const Model& model, const std::vector<BodyPose>& poses) {
  std::vector<JointRecord> records(model.joints.size());
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const ModelJoint& joint = model.joints[k];
    JointRecord& r = records[k];
    r.joint = static_cast<int>(k);
    carry(joint.frame1, joint.body1, poses, r.anchor1, r.axis1);
    carry(joint.frame2, joint.body2, poses, r.anchor2, r.axis2);
  }
  return records;
}

}  // namespace affix
