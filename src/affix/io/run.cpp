// The run loop behind run_simulation (run.hpp): step, check, write, repeat; summarise at the end.
#include "affix/io/run.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/contacts_writer.hpp"
#include "affix/io/frame_schedule.hpp"
#include "affix/io/interrupt.hpp"
#include "affix/io/joints_writer.hpp"
#include "affix/io/number_format.hpp"
#include "affix/io/pose_check.hpp"
#include "affix/io/progress.hpp"
#include "affix/io/stats_writer.hpp"
#include "affix/io/trajectory_h5_writer.hpp"
#include "affix/io/trajectory_sink.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The scene file and the mesh files it reads: a run must never delete or overwrite them.
std::vector<fs::path> scene_inputs(const Scene& scene) {
  std::vector<fs::path> inputs{scene.file};
  for (const BodyDef& body : scene.bodies) {
    if (const auto* mesh = std::get_if<MeshShape>(&body.shape); mesh && !mesh->file.empty()) inputs.push_back(mesh->file);
    if (const auto* compound = std::get_if<CompoundShape>(&body.shape)) {
      for (const ShapePart& part : compound->parts)
        if (const auto* mesh = std::get_if<MeshShape>(&part.shape); mesh && !mesh->file.empty())
          inputs.push_back(mesh->file);
    }
  }
  return inputs;
}

/// One run at a time per output directory: an exclusive lock on `DIR/.affix.lock`, held until the
/// summary is written, so that two runs started into one directory never mix their files.
class OutputLock {
 public:
  explicit OutputLock(const fs::path& dir) {
    const fs::path file = dir / ".affix.lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError(file.string() + ": cannot create the lock file (" + std::strerror(errno) + ")");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw InputError(dir.string() + ": another affix run is writing into this directory");
    }
  }
  OutputLock(OutputLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  OutputLock& operator=(OutputLock&&) = delete;
  ~OutputLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }

 private:
  int fd_ = -1;
};

/// Creates `dir` and its parents, locks it, and removes what an earlier run left there (run.hpp).
/// Refuses an empty path, which would mean the current directory only by accident, and a directory
/// where one of the files to be replaced is an input of the scene.
OutputLock prepare_out_dir(const fs::path& dir, const std::vector<fs::path>& inputs) {
  if (dir.empty()) throw InputError("--out: expected an output directory, got an empty path");
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    throw InputError(dir.string() + ": cannot create the output directory" +
                     (error ? " (" + error.message() + ")" : std::string()));
  }
  OutputLock lock(dir);
  for (const char* name : kRunOutputFiles) {
    const fs::path file = dir / name;
    for (const fs::path& input : inputs) {
      std::error_code missing;  // either file may not exist: then they are not the same
      if (fs::equivalent(file, input, missing)) {
        throw InputError(file.string() + ": the scene reads this file, and a run writes its own " + name +
                         " there; choose another --out");
      }
    }
    // A directory of that name is left alone: writing the file then fails, naming it.
    if (fs::is_directory(fs::symlink_status(file))) continue;
    fs::remove(file, error);
    if (error) {
      throw InputError(file.string() + ": cannot remove the earlier run's file (" + error.message() + ")");
    }
  }
  return lock;
}

class RunLoop {
 public:
  RunLoop(RunInputs& inputs, Simulator& simulator, const RunOptions& options)
      : simulator_(simulator),
        out_dir_(options.out_dir),
        names_(std::move(inputs.body_names)),
        joints_(std::move(inputs.joints)),
        tear_(std::move(inputs.tear)),
        depth_(std::move(inputs.depth)),
        write_contacts_(options.contacts),
        format_(options.format.value_or(default_trajectory_format(names_.size()))),
        schedule_(inputs.settings.dt, inputs.settings.duration, inputs.settings.output_fps),
        progress_(ProgressLine::for_stderr(schedule_.steps(), options.quiet)) {
    result_.scene = inputs.name;
    result_.solver = simulator.name();
    result_.planned_steps = schedule_.steps();
    result_.bodies = static_cast<int>(names_.size());
    result_.out_dir = options.out_dir;
  }

  RunResult run(const std::function<void(const fs::path&)>& before_first_step) {
    const Clock::time_point start = Clock::now();
    try {
      if (before_first_step) before_first_step(out_dir_);
      open_frame_files();
      stats_.emplace(out_dir_ / "stats.csv");
      if (write_contacts_) contact_writer_.emplace(out_dir_ / "contacts.csv", names_);
      write_due_frames(0, simulator_.poses());
      for (int n = 1; n <= schedule_.steps() && !interrupted(); ++n) advance(n);
      result_.completed = result_.error.empty();
    } catch (const SimulationError& e) {
      result_.error = step_context(step_) + e.what();
    } catch (const OutputError& e) {
      result_.error = e.what();
    } catch (const std::bad_alloc&) {
      // What was allocated for the step is freed by now: there is memory enough for the summary.
      result_.error = step_context(step_) + "out of memory: the run needs more memory than this machine has";
    }
    if (result_.completed && tally_.steps() > 0 && tally_.iteration_cap_hits() == tally_.steps()) {
      result_.completed = false;
      result_.error = "every step (" + std::to_string(tally_.steps()) +
                      ") ended without converging (iteration cap or no descent), so no step is a "
                      "solution of the equations of motion";
    }
    const int taken = tally_.steps();
    progress_.finish(taken, schedule_.step_time(taken));
    result_.wall_s = seconds_since(start);
    tally_.fill(result_);
    result_.simulated_time = schedule_.step_time(taken);
    return result_;
  }

 private:
  std::string step_context(int n) const {
    return "step " + std::to_string(n) + " (t = " + format_shortest(schedule_.step_time(n)) + " s): ";
  }

  /// The trajectory, and the joint records when the scene has joints: joints.csv for every jointed run
  /// (DESIGN §4), and in an HDF5 run also the /joint… datasets of trajectory.h5 (trajectory_h5_layout.hpp),
  /// where a million joints take 10⁶ × 96 B a frame before compression instead of joints.csv's 185 MB.
  void open_frame_files() {
    if (format_ == TrajectoryFormat::hdf5 && joints_.size() > 0) {
      joint_writer_.emplace(out_dir_ / "joints.csv", joints_);
      auto h5 = std::make_unique<TrajectoryH5Writer>(out_dir_ / trajectory_file_name(format_), names_, std::move(joints_));
      h5_with_joints_ = h5.get();
      joint_table_ = &h5->joints();
      trajectory_ = std::move(h5);
      return;
    }
    trajectory_ = open_trajectory(out_dir_, format_, names_);
    if (joints_.size() > 0) {
      joint_writer_.emplace(out_dir_ / "joints.csv", std::move(joints_));
      joint_table_ = &joint_writer_->joints();
    }
  }

  /// Ctrl-C or SIGTERM since the run began: stop here, after the step that was in progress.
  bool interrupted() {
    const int signal = InterruptGuard::signal_received();
    if (signal == 0) return false;
    result_.error = "interrupted by " + InterruptGuard::signal_name(signal) + " after step " +
                    std::to_string(step_) + " (t = " + format_shortest(schedule_.step_time(step_)) + " s)";
    return true;
  }

  /// Step n: advance, check every pose, write the statistics row, then (if the poses are sound) the
  /// frames due. A failing check still leaves the step's row, so stats.csv shows what went wrong.
  void advance(int n) {
    step_ = n;
    StepStats stats = take_step(n);
    const std::vector<BodyPose> poses = simulator_.poses();
    const PoseCheck check = check_poses(poses, names_);
    stats.warnings += check.strained_bodies;
    if (check.max_strain > result_.max_strain) result_.max_strain = check.max_strain;
    if (check.strained_bodies > 0 && !warned_strain_) {
      warned_strain_ = true;
      std::cerr << "affix: warning: " << step_context(n) << "body '" << excerpt(names_[check.most_strained])
                << "' is strained by " << format_shortest(100.0 * check.max_strain)
                << " % (a singular value of A is that far from 1; the limit for a stiff body is "
                << format_shortest(100.0 * kStrainLimit)
                << " %): raise its stiffness or lower the loads; later ones are counted in stats.csv\n";
    }
    tally_.add(stats);
    stats_->write_step(stats);
    if (!check.failure.empty()) throw SimulationError(check.failure);
    write_due_frames(n, poses);
    // After the frames, as the tear check: the trajectory shows the sunk body.
    if (const std::optional<ContactDepth::Sunk> sunk = depth_.find(stats)) throw SimulationError(depth_.message(names_, *sunk));
    progress_.set_alerts(tally_.iteration_cap_hits(), tally_.warnings());
    progress_.update(n, schedule_.step_time(n));
  }

  /// Advances one step; the loop, not the back-end, owns the step index, its time n·dt and its timing.
  StepStats take_step(int n) {
    const Clock::time_point start = Clock::now();
    StepStats stats = simulator_.step();
    stats.wall_ms = 1e3 * seconds_since(start);
    stats.step = n;
    stats.time = schedule_.step_time(n);
    return stats;
  }

  /// Writes every frame whose state is the one after step n (usually none or one), to the trajectory
  /// and to the record files that are open; the records are asked for once, only when a frame is due.
  void write_due_frames(int n, const std::vector<BodyPose>& poses) {
    std::vector<JointRecord> joints;
    std::vector<ContactRecord> contacts;
    bool recorded = false;
    for (; next_frame_ < schedule_.frames() && schedule_.step_of_frame(next_frame_) == n; ++next_frame_) {
      if (!recorded) {
        if (joint_table_) joints = simulator_.joint_records();
        if (contact_writer_) contacts = simulator_.contact_records();
        recorded = true;
      }
      const double time = schedule_.step_time(n);
      if (h5_with_joints_) h5_with_joints_->write_frame(next_frame_, time, poses, joints);
      else trajectory_->write_frame(next_frame_, time, poses);
      if (joint_writer_) joint_writer_->write_frame(next_frame_, time, joints);
      if (contact_writer_) contact_writer_->write_frame(next_frame_, time, contacts);
    }
    // After the frames, so that they show it (run.hpp).
    if (recorded && joint_table_)
      if (const std::optional<JointTear::Tear> tear = tear_.find(*joint_table_, joints))
        throw SimulationError(tear_.message(*joint_table_, *tear));
  }

  Simulator& simulator_;
  fs::path out_dir_;
  std::vector<std::string> names_;
  JointTable joints_;  // moved into joints.csv's writer or trajectory.h5's
  JointTear tear_;
  ContactDepth depth_;
  bool write_contacts_ = false;
  TrajectoryFormat format_;
  FrameSchedule schedule_;
  std::unique_ptr<TrajectorySink> trajectory_;  // opened inside run(): a failure there is reported
  std::optional<StatsWriter> stats_;
  std::optional<JointsWriter> joint_writer_;      // a scene with joints, trajectory.csv
  TrajectoryH5Writer* h5_with_joints_ = nullptr;  // trajectory_ when it holds the joint records too
  const JointTable* joint_table_ = nullptr;       // the joints of whichever writer has them
  std::optional<ContactsWriter> contact_writer_;  // --contacts
  ProgressLine progress_;
  StepTally tally_;
  RunResult result_;
  int step_ = 0;  // the step in progress, or the last one taken
  int next_frame_ = 0;
  bool warned_strain_ = false;
};

}  // namespace

RunInputs RunInputs::take(Scene& scene) {
  RunInputs inputs;
  inputs.name = scene.name;
  inputs.settings = scene.settings;
  inputs.inputs = scene_inputs(scene);
  inputs.body_names.reserve(scene.bodies.size());
  for (BodyDef& body : scene.bodies) inputs.body_names.push_back(std::move(body.name));
  inputs.joints = JointTable(scene);
  inputs.tear = JointTear(scene);
  inputs.depth = ContactDepth(scene);
  scene.joints = {};
  return inputs;
}

RunResult run_simulation(const Scene& scene, Simulator& simulator, const RunOptions& options,
                         const std::function<void(const fs::path&)>& before_first_step) {
  RunInputs inputs;
  inputs.name = scene.name;
  inputs.settings = scene.settings;
  inputs.inputs = scene_inputs(scene);
  inputs.body_names.reserve(scene.bodies.size());
  for (const BodyDef& body : scene.bodies) inputs.body_names.push_back(body.name);
  inputs.joints = JointTable(scene);
  inputs.tear = JointTear(scene);
  inputs.depth = ContactDepth(scene);
  return run_simulation(std::move(inputs), simulator, options, before_first_step);
}

RunResult run_simulation(RunInputs inputs, Simulator& simulator, const RunOptions& options,
                         const std::function<void(const fs::path&)>& before_first_step) {
  const InterruptGuard interrupt_guard;  // nested in the command's own guard when there is one
  const OutputLock lock = prepare_out_dir(options.out_dir, inputs.inputs);
  RunResult result = RunLoop(inputs, simulator, options).run(before_first_step);
  write_summary(options.out_dir / "summary.json", result);
  return result;
}

}  // namespace affix
