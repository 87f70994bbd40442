#include "affix/io/joints_writer.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "affix/io/number_format.hpp"

namespace affix {

double joint_gap(const JointDef& joint, const JointRecord& r) {
  const Vec3 gap = r.anchor1 - r.anchor2;
  switch (joint.type) {
    case JointType::prismatic:
      return (gap - gap.dot(r.axis2) * r.axis2).norm();
    case JointType::slider:
      if (joint.normal) return std::abs(gap.dot(r.axis2));
      return (gap - gap.dot(r.axis2) * r.axis2).norm();
    case JointType::distance: {
      const double d = gap.norm();
      if (!joint.length && (joint.min_length || joint.max_length)) {
        double outside = 0.0;
        if (joint.min_length) outside = std::max(outside, *joint.min_length - d);
        if (joint.max_length) outside = std::max(outside, d - *joint.max_length);
        return outside;
      }
      return std::abs(d - joint.length.value_or((joint.anchor1 - joint.anchor2).norm()));
    }
    case JointType::ball:
    case JointType::hinge:
    case JointType::universal:
    case JointType::fixed:
    case JointType::cone_twist:
    case JointType::cable:
      break;
  }
  return gap.norm();
}

JointsWriter::JointsWriter(const std::filesystem::path& path, std::vector<JointDef> joints)
    : file_(path, kHeader), joints_(std::move(joints)) {
  prefixes_.reserve(joints_.size());
  for (const JointDef& j : joints_)
    prefixes_.push_back(csv_field(j.name) + ',' + csv_field(j.body1) + ',' + csv_field(j.body2));
}

void JointsWriter::write_frame(int frame, double time, const std::vector<JointRecord>& records) {
  std::string rows;
  for (const JointRecord& r : records) {
    assert(r.joint >= 0 && r.joint < static_cast<int>(joints_.size()));
    rows += std::to_string(frame);
    rows += ',';
    append_number(rows, time);
    rows += ',';
    rows += prefixes_[r.joint];
    for (const Vec3* v : {&r.anchor1, &r.anchor2, &r.axis1, &r.axis2}) {
      for (int i = 0; i < 3; ++i) {
        rows += ',';
        append_number(rows, (*v)(i));
      }
    }
    rows += ',';
    append_number(rows, joint_gap(joints_[r.joint], r));
    rows += '\n';
  }
  file_.write(rows);
}

}  // namespace affix
