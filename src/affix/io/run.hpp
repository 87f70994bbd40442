#pragma once
// The run loop: a scene in, the files of DESIGN §4 out (trajectory.csv — or trajectory.h5, by
// RunOptions::format —, stats.csv, summary.json, and the joint records for a scene with joints —
// joints.csv beside trajectory.csv, inside trajectory.h5 beside its poses —, contacts.csv when asked for).
//
// The output never lies about what it holds:
//   - before anything is written, the files of the output contract left in the directory by an
//     earlier run are removed, so a run that stops early is never mixed with another run's files;
//   - the CSV files (and trajectory.h5) are written as the run goes, flushed after every step, so a run
//     that dies keeps everything up to its last step;
//   - a run that cannot go on — a SimulationError (divergence, an inverted body), an output file that
//     cannot be written (OutputError), SIGINT or SIGTERM (after the step in progress) — still writes
//     summary.json with completed = false and the reason, which names the step and its time;
//   - a joint torn apart at an output frame (joint_tear.hpp: its gap past a tenth of the scene's size,
//     ten for a spring) is a divergence, a SimulationError like the others; the frame is written first,
//     so that the trajectory and joints.csv show the tear;
//   - a body sunk into another or into the ground by more than the smaller one's smallest
//     half-extent (contact_depth.hpp, checked after every step) is a divergence too;
//   - a run in which every step ended at the iteration cap has no converged step at all: it is not
//     completed either.
// Bad input (an empty or uncreatable output directory) throws InputError before anything is written.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "affix/io/contact_depth.hpp"
#include "affix/io/joint_table.hpp"
#include "affix/io/joint_tear.hpp"
#include "affix/io/summary.hpp"
#include "affix/io/trajectory_format.hpp"
#include "affix/scene/scene.hpp"
#include "affix/model/simulator.hpp"

namespace affix {

struct RunOptions {
  std::filesystem::path out_dir;  ///< created if missing; the contract's files in it are replaced
  bool quiet = false;             ///< no progress line (there is none anyway when stderr is no tty)
  bool contacts = false;          ///< write contacts.csv (`affix run --contacts`)
  /// trajectory.csv or trajectory.h5 (`affix run --format`); absent: by the scene's body count
  /// (default_trajectory_format).
  std::optional<TrajectoryFormat> format;
};

/// The result of a run is its summary: completed, error, steps, wall_s and the rest (summary.hpp).
using RunResult = RunSummary;

/// The files a run writes into its output directory, and view.html, which `affix view` makes from
/// them: all removed when a new run starts there.
inline constexpr const char* kRunOutputFiles[] = {"trajectory.csv", "trajectory.h5", "stats.csv",   "summary.json",
                                                  "meshes.json",    "joints.csv",    "contacts.csv", "view.html"};

/// Runs `simulator`, freshly built from `scene` (the CLI compiles the scene and picks the back-end;
/// this loop works with any), for the scene's duration: prepares options.out_dir
/// (see above), calls `before_first_step(out_dir)` if given (extra files such as meshes.json; an
/// OutputError there ends the run like any write error), writes frame 0, steps N times writing every
/// step's statistics and the frames the schedule asks for (frame_schedule.hpp), and writes
/// summary.json at the end. Each frame goes to the trajectory (trajectory.csv or trajectory.h5), with
/// the joint records (joints.csv, or trajectory.h5's /joint… datasets) when the scene has joints
/// (the simulator's joint_records()), and to contacts.csv when options.contacts (its
/// contact_records()), all with the same frame number and time. Each step's `step`, `time` (n·dt) and `wall_ms` (timed around step()) are
/// set by the loop, whatever the back-end reported, and so is the step context of every error.
/// Throws InputError when the output directory is empty, cannot be created or cleared, and
/// OutputError when even summary.json cannot be written.
RunResult run_simulation(const Scene& scene, Simulator& simulator, const RunOptions& options,
                         const std::function<void(const std::filesystem::path&)>& before_first_step = {});

/// What the run loop needs of a scene once its model is compiled: a 10⁶-body scene is 1.7 GB that a
/// run would otherwise hold to its end for its body names and joints (run_scene drops the rest).
struct RunInputs {
  std::string name;                          ///< the scene's, for the summary
  Settings settings;                         ///< dt, duration, output_fps
  std::vector<std::filesystem::path> inputs; ///< the scene file and the mesh files it reads
  std::vector<std::string> body_names;       ///< scene order
  JointTable joints;                         ///< scene order, what joints.csv needs of them
  JointTear tear;                            ///< when a joint has come apart (joint_tear.hpp)
  ContactDepth depth;                        ///< when a body has sunk into another (contact_depth.hpp)

  /// Takes them from `scene` (names moved out, joints summarised; the rest of the scene, joints
  /// included, can then be dropped).
  static RunInputs take(Scene& scene);
};

/// The same loop from RunInputs alone.
RunResult run_simulation(RunInputs inputs, Simulator& simulator, const RunOptions& options,
                         const std::function<void(const std::filesystem::path&)>& before_first_step = {});

}  // namespace affix
