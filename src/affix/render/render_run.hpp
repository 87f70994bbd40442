#pragma once
// `affix render` as a library call: a run's output directory in, numbered PNG pictures out, and on
// request a GIF and/or an MP4 of them. The command (cli/render_command.cpp) only parses options and
// prints what this returns.
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "affix/render/camera.hpp"
#include "affix/render/render_style.hpp"

namespace affix {

struct RenderOptions {
  std::filesystem::path run_dir;                  ///< holds meshes.json and trajectory.csv
  std::optional<std::filesystem::path> out_dir;   ///< pictures; absent: run_dir/frames
  int every = 1;                                  ///< draw trajectory frames 0, every, 2·every, …
  int width = 960;
  int height = 540;
  std::optional<Vec3> camera_position;            ///< absent: automatic framing (camera_framing.hpp)
  std::optional<Vec3> camera_target;             ///< absent: automatic framing
  double fov_deg = 35.0;                          ///< vertical field of view
  std::optional<std::filesystem::path> gif;       ///< animation files, made with ffmpeg
  std::optional<std::filesystem::path> mp4;
  RenderStyle style;
  std::function<void(int done, int total)> progress;  ///< called after each picture, if set
};

struct RenderResult {
  std::filesystem::path out_dir;
  int pictures = 0;
  int trajectory_frames = 0;
  int fps = 0;        ///< playback rate of the animations: real time, at most 50 (GIF delays are 1/100 s)
  Camera camera;      ///< the camera used, automatic or given
  std::vector<std::filesystem::path> animations;
};

/// The largest width or height accepted, and the smallest.
inline constexpr int kMaxPictureSize = 4096;
inline constexpr int kMinPictureSize = 16;

/// Checks the options (InputError naming the option), reads the run (InputError naming the file), checks
/// ffmpeg is there if an animation is asked for, then draws every selected frame into out_dir (created;
/// pictures of an earlier, longer render removed) and encodes the animations.
RenderResult render_run(const RenderOptions& options);

}  // namespace affix
