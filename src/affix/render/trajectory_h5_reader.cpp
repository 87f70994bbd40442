#include "affix/render/trajectory_h5_reader.hpp"

#include "affix/error.hpp"
#include "affix/io/trajectory_h5_reader.hpp"
#include "affix/io/trajectory_row.hpp"

namespace affix {

namespace {

Trajectory read(const std::filesystem::path& file, const std::vector<std::string>& body_names, int every) {
  if (body_names.empty()) throw InputError(file.string() + ": meshes.json lists no bodies to draw");
  const TrajectoryH5Reader reader(file, body_names);
  Trajectory out;
  out.frame_count = reader.frames();
  for (int f = 0; f < reader.frames(); f += every) {
    if ((out.frames.size() + 1) * body_names.size() > kMaxHeldPoses)
      reader.fail("more than " + std::to_string(kMaxHeldPoses) +
                  " poses (frames × bodies) to hold for drawing; draw fewer frames (--every)");
    const std::vector<double> values = reader.frame(f);
    TrajectoryFrame& frame = out.frames.emplace_back(TrajectoryFrame{f, reader.time(f), {}});
    frame.poses.reserve(body_names.size());
    for (std::size_t b = 0; b < body_names.size(); ++b) frame.poses.push_back(trajectory_pose(&values[12 * b]));
  }
  return out;
}

}  // namespace

Trajectory read_trajectory_h5(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                              int every) {
  try_reading_in_child(file, [&] { read(file, body_names, every); });
  return read(file, body_names, every);
}

}  // namespace affix
