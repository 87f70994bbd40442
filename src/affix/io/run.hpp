#pragma once
// The run loop: a scene in, the three files of DESIGN §4 out (trajectory.csv, stats.csv, summary.json).
//
// The CSV files are written as the run goes, flushed after every step, so that a run that dies keeps
// everything up to its last step. A SimulationError ends the run early but not badly: the files stay,
// summary.json records completed = false and the error (which says at which step and why), and the
// result says the same. Anything else (bad input, an unwritable output directory) propagates.
#include <filesystem>

#include "affix/io/summary.hpp"
#include "affix/scene/scene.hpp"
#include "affix/solvers/simulator.hpp"

namespace affix {

struct RunOptions {
  std::filesystem::path out_dir;  ///< created if missing; the three files are overwritten
  bool quiet = false;             ///< no progress line (there is none anyway when stderr is no tty)
};

/// The result of a run is its summary: completed, error, steps, wall_s and the rest (summary.hpp).
using RunResult = RunSummary;

/// Builds the scene's simulator with make_simulator (its InputError propagates before anything is
/// written), then runs it as below.
RunResult run_simulation(const Scene& scene, const RunOptions& options);

/// Runs `simulator`, freshly built from `scene`, for the scene's duration: creates options.out_dir,
/// writes frame 0, steps N = ceil(duration/dt − 1e-9) times writing every step's statistics and the
/// frames the schedule asks for (frame_schedule.hpp), and writes summary.json at the end.
/// Each step's `step`, `time` (n·dt) and `wall_ms` (timed around step()) are set by the loop, whatever
/// the back-end reported. Throws InputError when the output directory or files cannot be created.
RunResult run_simulation(const Scene& scene, Simulator& simulator, const RunOptions& options);

}  // namespace affix
