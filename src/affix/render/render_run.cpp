#include "affix/render/render_run.hpp"

#include <string>

#include "affix/error.hpp"
#include "affix/render/animation.hpp"
#include "affix/render/camera_framing.hpp"
#include "affix/render/frame_selection.hpp"
#include "affix/render/gl_renderer.hpp"
#include "affix/render/png_writer.hpp"
#include "affix/render/recording.hpp"
#include "affix/render/render_scene.hpp"

namespace affix {

namespace {

namespace fs = std::filesystem;

void check_options(const RenderOptions& o) {
  const auto fail = [](const std::string& message) { throw InputError(message); };
  if (o.every < 1) fail("--every " + std::to_string(o.every) + ": expected a whole number, at least 1");
  for (const auto& [name, value] : {std::pair{"--width", o.width}, std::pair{"--height", o.height}}) {
    if (value < kMinPictureSize || value > kMaxPictureSize)
      fail(std::string(name) + " " + std::to_string(value) + ": expected " + std::to_string(kMinPictureSize) +
           " to " + std::to_string(kMaxPictureSize) + " pixels");
  }
  if (!(o.fov_deg >= 1.0 && o.fov_deg <= 170.0)) fail("--fov " + std::to_string(o.fov_deg) + ": expected 1 to 170 degrees");
  if (o.camera_position && !o.camera_position->allFinite()) fail("--camera-position: expected three finite numbers");
  if (o.camera_target && !o.camera_target->allFinite()) fail("--camera-target: expected three finite numbers");
  if (o.style.supersample < 1 || o.style.supersample > 4) fail("supersampling: expected 1 to 4");
}

}  // namespace

RenderResult render_run(const RenderOptions& options) {
  check_options(options);
  // Fail before drawing anything when the encoder the options ask for is missing.
  if (options.gif) require_ffmpeg("--gif");
  if (options.mp4) require_ffmpeg("--mp4");
  // Only the frames to draw are kept (trajectory frames 0, every, 2·every, …).
  const Recording recording = read_recording(options.run_dir, options.every);

  RenderResult result;
  result.trajectory_frames = recording.frame_count;
  result.pictures = static_cast<int>(recording.frames.size());

  // One camera for the whole animation: framed on the bodies over the whole run, so nothing leaves the
  // picture and the view never jumps; a given position or target replaces the automatic one.
  const std::vector<Vec3> points = framing_points(recording);
  const Aabb bodies = aabb_of(points);
  const double aspect = static_cast<double>(options.width) / options.height;
  result.camera = frame_points(points, aspect, options.fov_deg);
  if (options.camera_position) result.camera.position = *options.camera_position;
  if (options.camera_target) result.camera.target = *options.camera_target;
  if ((result.camera.position - result.camera.target).norm() < 1e-12)
    throw InputError("--camera-position and --camera-target: the camera must not sit on its target");

  result.out_dir = options.out_dir.value_or(options.run_dir / "frames");
  std::error_code error;
  fs::create_directories(result.out_dir, error);
  if (error) throw InputError(result.out_dir.string() + ": cannot create the directory: " + error.message());

  const RenderScene scene = make_render_scene(recording.scene, bodies, options.style);
  OffscreenRenderer renderer(options.width, options.height, options.style.supersample);
  std::vector<double> times;
  for (int picture = 0; picture < result.pictures; ++picture) {
    const TrajectoryFrame& frame = recording.frames[static_cast<std::size_t>(picture)];
    write_png(result.out_dir / picture_file_name(picture),
              renderer.render(scene, frame.poses, result.camera, options.style));
    times.push_back(frame.time);
    if (options.progress) options.progress(picture + 1, result.pictures);
  }
  remove_stale_pictures(result.out_dir, result.pictures);

  // GIF frame delays count hundredths of a second and browsers slow anything under 2/100 s down, hence 50.
  result.fps = playback_fps(times, 50);
  if (options.gif) {
    encode_animation(result.out_dir, result.pictures, result.fps, *options.gif, AnimationFormat::kGif);
    result.animations.push_back(*options.gif);
  }
  if (options.mp4) {
    encode_animation(result.out_dir, result.pictures, result.fps, *options.mp4, AnimationFormat::kMp4);
    result.animations.push_back(*options.mp4);
  }
  return result;
}

}  // namespace affix
