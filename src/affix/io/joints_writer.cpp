#include "affix/io/joints_writer.hpp"

#include <cassert>
#include <utility>

#include "affix/io/number_format.hpp"

namespace affix {

double joint_gap(const JointDef& joint, const JointRecord& r) { return JointGapRule::of(joint)(r); }

JointsWriter::JointsWriter(const std::filesystem::path& path, JointTable joints)
    : file_(path, kHeader), joints_(std::move(joints)) {}

void JointsWriter::write_frame(int frame, double time, const std::vector<JointRecord>& records) {
  std::string rows;
  for (const JointRecord& r : records) {
    assert(r.joint >= 0 && r.joint < static_cast<int>(joints_.size()));
    rows += std::to_string(frame);
    rows += ',';
    append_number(rows, time);
    rows += ',';
    rows += joints_.prefix(static_cast<std::size_t>(r.joint));
    for (const Vec3* v : {&r.anchor1, &r.anchor2, &r.axis1, &r.axis2}) {
      for (int i = 0; i < 3; ++i) {
        rows += ',';
        append_number(rows, (*v)(i));
      }
    }
    rows += ',';
    append_number(rows, joints_.gap(static_cast<std::size_t>(r.joint), r));
    rows += '\n';
    if (rows.size() >= kCsvBlockBytes) {  // complete rows only
      file_.write(rows);
      rows.clear();
    }
  }
  file_.write(rows);
}

}  // namespace affix
