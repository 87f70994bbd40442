// The run loop behind run_simulation (run.hpp): step, write, repeat; summarise at the end.
#include "affix/io/run.hpp"

#include <chrono>
#include <cmath>
#include <string>
#include <system_error>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/frame_schedule.hpp"
#include "affix/io/number_format.hpp"
#include "affix/io/progress.hpp"
#include "affix/io/stats_writer.hpp"
#include "affix/io/trajectory_writer.hpp"

namespace affix {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Creates `dir` and its parents; an existing directory is fine, anything else in the way is not.
void create_out_dir(const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir)) {
    throw InputError(dir.string() + ": cannot create the output directory" +
                     (error ? " (" + error.message() + ")" : std::string()));
  }
}

std::vector<std::string> body_names(const Scene& scene) {
  std::vector<std::string> names;
  names.reserve(scene.bodies.size());
  for (const BodyDef& body : scene.bodies) names.push_back(body.name);
  return names;
}

/// A guard independent of the back-end: a NaN or infinite pose never reaches trajectory.csv; the run
/// stops at the step that produced it instead.
void check_finite(const std::vector<BodyPose>& poses, const Scene& scene, int step, double time) {
  for (std::size_t b = 0; b < poses.size(); ++b) {
    if (poses[b].p.allFinite() && poses[b].A.allFinite()) continue;
    const std::string name = b < scene.bodies.size() ? scene.bodies[b].name : std::to_string(b);
    throw SimulationError("step " + std::to_string(step) + " (t = " + format_shortest(time) +
                          " s): body '" + name + "' has a non-finite pose (the state diverged)");
  }
}

class RunLoop {
 public:
  RunLoop(const Scene& scene, Simulator& simulator, const RunOptions& options)
      : scene_(scene),
        simulator_(simulator),
        schedule_(scene.settings.dt, scene.settings.duration, scene.settings.output_fps),
        trajectory_(options.out_dir / "trajectory.csv", body_names(scene)),
        stats_(options.out_dir / "stats.csv"),
        progress_(ProgressLine::for_stderr(schedule_.steps(), options.quiet)) {
    result_.scene = scene.name;
    result_.solver = simulator.name();
    result_.planned_steps = schedule_.steps();
    result_.bodies = static_cast<int>(scene.bodies.size());
    result_.out_dir = options.out_dir;
  }

  RunResult run() {
    const Clock::time_point start = Clock::now();
    std::vector<StepStats> steps;
    steps.reserve(static_cast<std::size_t>(schedule_.steps()));
    try {
      write_due_frames(0, simulator_.poses());
      for (int n = 1; n <= schedule_.steps(); ++n) {
        steps.push_back(take_step(n));
        stats_.write_step(steps.back());
        const std::vector<BodyPose> poses = simulator_.poses();
        check_finite(poses, scene_, n, schedule_.step_time(n));
        write_due_frames(n, poses);
        progress_.update(n, schedule_.step_time(n));
      }
      result_.completed = true;
    } catch (const SimulationError& e) {
      result_.completed = false;
      result_.error = *e.what() ? e.what() : "step " + std::to_string(steps.size()) + ": simulation failed";
    }
    const int taken = static_cast<int>(steps.size());
    progress_.finish(taken, schedule_.step_time(taken));
    result_.wall_s = seconds_since(start);
    summarize_steps(steps, result_);
    result_.simulated_time = schedule_.step_time(taken);
    return result_;
  }

 private:
  /// Advances one step; the loop, not the back-end, owns the step index, its time n·dt and its timing.
  StepStats take_step(int n) {
    const Clock::time_point start = Clock::now();
    StepStats stats = simulator_.step();
    stats.wall_ms = 1e3 * seconds_since(start);
    stats.step = n;
    stats.time = schedule_.step_time(n);
    return stats;
  }

  /// Writes every frame whose state is the one after step n (usually none or one).
  void write_due_frames(int n, const std::vector<BodyPose>& poses) {
    for (; next_frame_ < schedule_.frames() && schedule_.step_of_frame(next_frame_) == n; ++next_frame_) {
      trajectory_.write_frame(next_frame_, schedule_.step_time(n), poses);
    }
  }

  const Scene& scene_;
  Simulator& simulator_;
  FrameSchedule schedule_;
  TrajectoryWriter trajectory_;
  StatsWriter stats_;
  ProgressLine progress_;
  RunResult result_;
  int next_frame_ = 0;
};

}  // namespace

RunResult run_simulation(const Scene& scene, Simulator& simulator, const RunOptions& options) {
  create_out_dir(options.out_dir);
  RunResult result = RunLoop(scene, simulator, options).run();
  write_summary(options.out_dir / "summary.json", result);
  return result;
}

}  // namespace affix
