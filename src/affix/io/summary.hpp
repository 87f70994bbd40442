#pragma once
// summary.json (DESIGN §4): one object describing a finished (or failed) run. The contract keys are
//   scene, solver, steps, wall_s, median_ms, max_ms, max_joint_error, min_distance, completed, error
// and these follow:
//   mean_iterations, max_iterations, iteration_cap_hits, simulated_time, planned_steps, bodies, out_dir,
//   warnings, max_strain
// JSON has no infinity or NaN: a non-finite number is written as null. That is how min_distance reads
// when nothing ever came near (its stats.csv value is `inf`). `error` is null for a completed run.
#include <filesystem>
#include <span>
#include <limits>
#include <string>
#include <vector>

#include "affix/model/simulator.hpp"

namespace affix {

struct RunSummary {
  std::string scene;             ///< scene name (the file stem)
  std::string solver;            ///< Simulator::name()
  int steps = 0;                 ///< steps taken (and written to stats.csv)
  int planned_steps = 0;         ///< steps the duration asks for
  double simulated_time = 0.0;   ///< steps·dt (s)
  int bodies = 0;
  double wall_s = 0.0;           ///< wall-clock time of the whole run loop, writing included
  double median_ms = 0.0;        ///< median wall time of one step (0 when no step was taken)
  double max_ms = 0.0;
  double mean_iterations = 0.0;
  int max_iterations = 0;
  int iteration_cap_hits = 0;    ///< steps that stopped at the iteration cap
  double max_joint_error = 0.0;  ///< largest over all steps (m)
  double min_distance = 0.0;     ///< smallest over all steps (m); +inf when nothing was ever near
  bool completed = false;
  std::string error;             ///< why the run stopped early; empty when completed
  std::filesystem::path out_dir;
  int warnings = 0;              ///< sum of the steps' counted numerical events (StepStats::warnings)
  double max_strain = 0.0;       ///< largest max|σ(A) − 1| of any body after any step (pose_check.hpp)
};

/// The per-step aggregates of a run, gathered as it goes: a long run keeps one number per step (its
/// wall time, for the median), not every step's statistics.
class StepTally {
 public:
  void add(const StepStats& step);
  /// Sets steps, median_ms, max_ms, iteration counts, warnings, max_joint_error and min_distance.
  void fill(RunSummary& summary) const;
  int steps() const { return static_cast<int>(wall_ms_.size()); }
  int iteration_cap_hits() const { return iteration_cap_hits_; }
  int warnings() const { return warnings_; }

 private:
  std::vector<double> wall_ms_;
  double max_ms_ = 0.0;
  double total_iterations_ = 0.0;
  int max_iterations_ = 0;
  int iteration_cap_hits_ = 0;
  int warnings_ = 0;
  double max_joint_error_ = 0.0;
  double min_distance_ = std::numeric_limits<double>::infinity();
};

/// Fills the per-step aggregates of `summary` (steps, median_ms, max_ms, iteration counts, warnings,
/// max_joint_error, min_distance) from every step's statistics.
void summarize_steps(std::span<const StepStats> steps, RunSummary& summary);

/// The JSON text of summary.json, keys in the order above, two-space indented.
std::string summary_json(const RunSummary& summary);

/// Writes summary_json(summary) to `path`. Throws OutputError when the file cannot be written.
void write_summary(const std::filesystem::path& path, const RunSummary& summary);

}  // namespace affix
