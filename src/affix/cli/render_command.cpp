// `affix render RUN_DIR`: PNG pictures of a run, optionally a GIF and/or an MP4 (render/render_run.hpp
// does the work; this file turns the command line into RenderOptions and reports where things went).
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "affix/cli/commands.hpp"
#include "affix/cli/exit_codes.hpp"
#include "affix/error.hpp"
#include "affix/render/render_run.hpp"

namespace affix::cli {

namespace {

struct RenderArgs {
  RenderOptions options;
  std::vector<double> camera_position;
  std::vector<double> camera_target;
  bool quiet = false;
};

/// "x,y,z" as a point; the option's name in the error otherwise.
std::optional<Vec3> point_option(const std::vector<double>& values, const std::string& name) {
  if (values.empty()) return std::nullopt;
  if (values.size() != 3) throw InputError(name + ": expected three numbers x,y,z, got " + std::to_string(values.size()));
  return Vec3(values[0], values[1], values[2]);
}

std::string size_text(const RenderOptions& o) { return std::to_string(o.width) + "x" + std::to_string(o.height); }

int render(RenderArgs& args) {
  RenderOptions& options = args.options;
  options.camera_position = point_option(args.camera_position, "--camera-position");
  options.camera_target = point_option(args.camera_target, "--camera-target");
  // A picture counter on a terminal only, rewritten in place (like `affix run`'s progress line).
  const bool show_progress = !args.quiet && ::isatty(STDERR_FILENO) == 1;
  if (show_progress) {
    options.progress = [](int done, int total) {
      std::cerr << "\rpicture " << done << '/' << total << std::flush;
      if (done == total) std::cerr << '\n';
    };
  }
  const RenderResult result = render_run(options);
  const Vec3& p = result.camera.position;
  const Vec3& t = result.camera.target;
  std::cout << "wrote " << result.out_dir.string() << ": " << result.pictures << " PNG pictures (00000.png ...), "
            << size_text(options) << ", every " << options.every << " of " << result.trajectory_frames
            << " trajectory frames\n";
  std::cout << "  camera  position " << p.x() << ',' << p.y() << ',' << p.z() << "  target " << t.x() << ','
            << t.y() << ',' << t.z() << "  fov " << result.camera.fov_deg << "\n";
  for (const auto& file : result.animations)
    std::cout << "wrote " << file.string() << " (" << result.fps << " frames per second)\n";
  return kExitOk;
}

}  // namespace

Action add_render(CLI::App& app) {
  auto args = std::make_shared<RenderArgs>();
  RenderOptions& o = args->options;
  CLI::App* render_app = app.add_subcommand("render", "Draw a run's frames as PNG pictures; optionally a GIF or MP4");
  render_app->add_option("run_dir", o.run_dir, "Output directory of `affix run` (meshes.json, trajectory.csv)")
      ->required();
  render_app->add_option("--out", o.out_dir, "Folder for the pictures (default: RUN_DIR/frames)");
  render_app->add_option("--every", o.every, "Draw every N-th trajectory frame")->capture_default_str();
  render_app->add_option("--width", o.width, "Picture width in pixels")->capture_default_str();
  render_app->add_option("--height", o.height, "Picture height in pixels")->capture_default_str();
  render_app->add_option("--camera-position", args->camera_position, "Camera position x,y,z (default: automatic)")
      ->delimiter(',');
  render_app->add_option("--camera-target", args->camera_target, "Point looked at x,y,z (default: automatic)")
      ->delimiter(',');
  render_app->add_option("--fov", o.fov_deg, "Vertical field of view in degrees")->capture_default_str();
  render_app->add_option("--gif", o.gif, "Also write an animated GIF (needs ffmpeg)");
  render_app->add_option("--mp4", o.mp4, "Also write an H.264 MP4 video (needs ffmpeg)");
  render_app->add_flag("--quiet,-q", args->quiet, "No progress line");
  return [args] { return render(*args); };
}

}  // namespace affix::cli
