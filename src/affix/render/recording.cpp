#include "affix/render/recording.hpp"

#include "affix/error.hpp"
#include "affix/io/trajectory_format.hpp"

namespace affix {

Recording read_recording(const std::filesystem::path& run_dir, int every) {
  std::error_code error;
  if (!std::filesystem::is_directory(run_dir, error))
    throw InputError(run_dir.string() + ": not a directory (expected the output directory of `affix run`)");
  Recording recording;
  recording.scene = read_scene_meshes(run_dir / "meshes.json");
  const std::filesystem::path trajectory = trajectory_file(run_dir);
  Trajectory read = read_trajectory(trajectory, recording.scene.names, every);
  if (read.frames.empty()) throw InputError(trajectory.string() + ": no complete frame to render");
  recording.frames = std::move(read.frames);
  recording.frame_count = read.frame_count;
  return recording;
}

std::vector<Vec3> framing_points(const Recording& recording, std::size_t budget) {
  const std::size_t bodies = recording.scene.meshes.size();
  // Per body, the frames whose pose differs from the previous one kept: a body at rest counts once.
  std::vector<std::vector<const BodyPose*>> poses(bodies);
  std::size_t exact_count = 0;
  for (std::size_t b = 0; b < bodies; ++b) {
    for (const TrajectoryFrame& frame : recording.frames) {
      const BodyPose& pose = frame.poses[b];
      if (poses[b].empty() || pose.p != poses[b].back()->p || pose.A != poses[b].back()->A) poses[b].push_back(&pose);
    }
    exact_count += poses[b].size() * recording.scene.meshes[b].vertices.size();
  }
  const bool exact = exact_count <= budget;
  std::vector<Vec3> points;
  for (std::size_t b = 0; b < bodies; ++b) {
    std::vector<Vec3> rest = recording.scene.meshes[b].vertices;
    if (!exact) {
      const Aabb box = aabb_of(rest);
      rest.clear();
      for (int k = 0; k < 8; ++k)
        rest.emplace_back(k & 1 ? box.max.x() : box.min.x(), k & 2 ? box.max.y() : box.min.y(),
                          k & 4 ? box.max.z() : box.min.z());
    }
    for (const BodyPose* pose : poses[b]) {
      for (const Vec3& r : rest) {
        const Vec3 x = world_point(*pose, r);
        if ((x.array().abs() <= kMaxFramedCoordinate).all()) points.push_back(x);  // false for NaN too
      }
    }
  }
  return points;
}

Aabb recording_bounds(const Recording& recording) { return aabb_of(framing_points(recording)); }

}  // namespace affix
