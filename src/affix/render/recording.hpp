#pragma once
// A finished run as the renderer sees it: the bodies' rest meshes and the ground (meshes.json) and
// their poses frame by frame (trajectory.csv, or trajectory.h5 where the run wrote that instead), both
// read from the run's output directory.
#include <filesystem>
#include <vector>

#include "affix/geometry/aabb.hpp"
#include "affix/io/scene_meshes.hpp"
#include "affix/render/trajectory_reader.hpp"

namespace affix {

struct Recording {
  SceneMeshes scene;
  std::vector<TrajectoryFrame> frames;  ///< the frames to draw
  int frame_count = 0;                  ///< complete frames in the trajectory, drawn or not
};

/// Reads RUN_DIR/meshes.json and RUN_DIR/trajectory.csv (or trajectory.h5 when only that is there,
/// io/trajectory_format.hpp), keeping trajectory frames 0, every, 2·every,
/// … (`every` ≥ 1). Throws InputError naming the missing or bad file, or the directory when it is not
/// one, or the trajectory when it holds no frame.
Recording read_recording(const std::filesystem::path& run_dir, int every = 1);

/// World points farther than this from the origin along any axis are not framed (m): far beyond any
/// body that has not run away, and near enough that the camera and the ground grid stay finite.
inline constexpr double kMaxFramedCoordinate = 1e12;

/// The world position A·x̄ + p of a rest point x̄ (trajectory.csv's convention).
inline Vec3 world_point(const BodyPose& pose, const Vec3& rest) { return pose.A * rest + pose.p; }

/// Points whose convex hull holds every body in every frame: what a camera must keep in view. Exact —
/// every vertex of every body in every frame where its pose changed — when there are at most `budget`
/// of those; otherwise, per body and frame, the eight corners of its rest box mapped by the pose (the
/// mapped box contains the body, so the hull still holds it, a little loosely). Points that are not
/// finite or lie beyond kMaxFramedCoordinate (a diverged run's last frame) are left out.
std::vector<Vec3> framing_points(const Recording& recording, std::size_t budget = 2'000'000);

/// The box around framing_points.
Aabb recording_bounds(const Recording& recording);

}  // namespace affix
