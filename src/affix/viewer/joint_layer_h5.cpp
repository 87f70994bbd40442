#include "affix/viewer/joint_layer_h5.hpp"

#include <cmath>
#include <unordered_map>

#include "affix/error.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/trajectory_h5_reader.hpp"

namespace affix::viewer {

namespace {

namespace fs = std::filesystem;

JointLayer read(const fs::path& file, const std::vector<std::string>& body_names, const PoseFrames& frames,
                std::size_t max_joints) {
  const TrajectoryH5Reader reader(file, body_names);
  JointLayer out;
  if (!reader.has_joints()) return out;
  // trajectory.h5's frame 0 is always embedded (decimation.hpp); its poses place the anchors.
  if (frames.selection.frames.empty() || frames.selection.frames.front() != 0) return out;
  const TrajectoryH5Reader::JointStart start = reader.joints_at_start(max_joints);
  std::unordered_map<std::string, int> index;
  index.reserve(body_names.size());
  for (std::size_t i = 0; i < body_names.size(); ++i) index.emplace(body_names[i], static_cast<int>(i));
  const auto body = [&](const std::string& name, const char* dataset, std::size_t j, bool world_allowed) {
    if (world_allowed && name == "world") return -1;
    const auto found = index.find(name);
    if (found == index.end())
      reader.fail(std::string("/") + dataset + ": joint " + std::to_string(j + 1) + ": body " + quoted_field(name) +
                  " is not one of meshes.json's bodies");
    return found->second;
  };
  // The anchor in its body's rest frame, as records_reader.cpp reads joints.csv's.
  const auto rest_point = [&](int b, const Vec3& x, std::size_t j) {
    const Vec3 x_bar = first_frame_rest_point(frames, b, x);
    if (!x_bar.allFinite())
      reader.fail("joint " + std::to_string(j + 1) + ": expected a finite anchor on a body whose pose at frame 0 is "
                  "finite and invertible");
    return x_bar;
  };
  out.total = static_cast<int>(start.total);
  for (std::size_t j = 0; j < start.joint.size(); ++j) {
    JointAnchors a;
    a.name = start.joint[j];
    a.body1 = body(start.body1[j], "joint_body1", j, false);
    a.body2 = body(start.body2[j], "joint_body2", j, true);
    const Vec3 x1(start.anchor1[3 * j], start.anchor1[3 * j + 1], start.anchor1[3 * j + 2]);
    const Vec3 x2(start.anchor2[3 * j], start.anchor2[3 * j + 1], start.anchor2[3 * j + 2]);
    a.anchor1 = rest_point(a.body1, x1, j);
    if (a.body2 < 0 && !x2.allFinite()) reader.fail("joint " + std::to_string(j + 1) + ": expected a finite anchor");
    a.anchor2 = a.body2 < 0 ? x2 : rest_point(a.body2, x2, j);
    out.joints.push_back(std::move(a));
  }
  return out;
}

}  // namespace

JointLayer read_joint_layer_h5(const fs::path& file, const std::vector<std::string>& body_names,
                               const PoseFrames& frames, std::size_t max_joints) {
  try_reading_in_child(file, [&] { read(file, body_names, frames, max_joints); });
  return read(file, body_names, frames, max_joints);
}

}  // namespace affix::viewer
