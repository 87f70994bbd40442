#include "affix/io/trajectory_writer.hpp"

#include <cassert>

#include "affix/io/number_format.hpp"

namespace affix {

TrajectoryWriter::TrajectoryWriter(const std::filesystem::path& path, std::vector<std::string> body_names)
    : file_(path, kHeader) {
  body_fields_.reserve(body_names.size());
  for (const std::string& name : body_names) body_fields_.push_back(csv_field(name));
}

void TrajectoryWriter::write_frame(int frame, double time, const std::vector<BodyPose>& poses) {
  assert(poses.size() == body_fields_.size());
  std::string rows;
  for (std::size_t b = 0; b < poses.size(); ++b) {
    const BodyPose& pose = poses[b];
    rows += std::to_string(frame);
    rows += ',';
    append_number(rows, time);
    rows += ',';
    rows += body_fields_[b];
    for (int i = 0; i < 3; ++i) {
      rows += ',';
      append_number(rows, pose.p(i));
    }
    // Row-major: a00, a01, a02, a10, …
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        rows += ',';
        append_number(rows, pose.A(i, j));
      }
    }
    rows += '\n';
    if (rows.size() >= kCsvBlockBytes) {  // complete rows only
      file_.write(rows);
      rows.clear();
    }
  }
  file_.write(rows);
}

}  // namespace affix
