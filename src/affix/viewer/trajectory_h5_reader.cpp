#include "affix/viewer/trajectory_h5_reader.hpp"

#include "affix/error.hpp"
#include "affix/io/trajectory_h5_reader.hpp"

namespace affix::viewer {

namespace {

PoseFrames read(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                std::size_t budget_bytes) {
  const std::size_t bodies = body_names.size();
  if (bodies == 0) throw InputError(file.string() + ": meshes.json lists no bodies to show");
  const TrajectoryH5Reader reader(file, body_names);
  PoseFrames out;
  out.selection = select_frames(reader.frames(), static_cast<int>(bodies), budget_bytes);
  out.times.reserve(out.selection.frames.size());
  out.poses.reserve(out.selection.frames.size() * bodies * 12);
  for (const int f : out.selection.frames) {
    out.times.push_back(reader.time(f));
    for (const double value : reader.frame(f)) out.poses.push_back(static_cast<float>(value));
  }
  return out;
}

}  // namespace

PoseFrames read_trajectory_h5(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                              std::size_t budget_bytes) {
  try_reading_in_child(file, [&] { read(file, body_names, budget_bytes); });
  return read(file, body_names, budget_bytes);
}

}  // namespace affix::viewer
