#pragma once
// One engine on one scene, run in a forked child process so that nothing it does can hang or crash
// the benchmark: the child builds the engine, steps it until the scene's duration or the per-run time
// budget (then the run is partial), measures every step (measures.hpp) and sends a snapshot of its
// measures to the parent twice a second and at the end. The parent kills a child whose setup or
// single step outlasts its limit by a grace period (a step longer than the whole budget: ODE's dense
// dWorldStep on thousands of rows) and keeps the last snapshot; a child killed by a signal (a crash, the memory limit) is
// reported the same way. The child runs on one thread (TBB limited to 1, OMP_NUM_THREADS=1 for
// CHOLMOD's BLAS), with its address space limited so that a dense solve cannot take the machine.
#include <string>

#include "engine.hpp"
#include "measures.hpp"

namespace affix::peers {

struct TrialLimits {
  double budget_s = 10.0;        ///< time in the engine's step calls (setup and measuring not counted)
  double setup_limit_s = 30.0;   ///< wall time to build the engine (killed past it + grace_s)
  double grace_s = 10.0;         ///< past a limit before the child is killed: one step gets budget + grace
  double memory_gb = 8.0;        ///< address-space limit of the child
};

struct TrialResult {
  /// "complete", "partial" (budget reached or killed), "blew up" (non-finite, past the blow-up
  /// radius, or the engine's own verdict: MuJoCo's instability check, an affix SimulationError),
  /// "refused" (the engine cannot translate or run the scene), "cannot run" (an affix solver whose
  /// capabilities leave out what a contact scene is about; not started), "failed" (it stopped with an
  /// error or crashed).
  std::string status;
  std::string note;        ///< why, for anything but complete
  int steps_planned = 0;
  double setup_s = 0.0;
  Measures measures;
  /// Joint gap under 1 mm, penetrations under 1 cm, no blow-up, over every step made.
  bool kept_so_far() const;
  /// kept_so_far() over the whole run (complete): the scene kept, which a ratio's peer must have.
  bool intact() const { return status == "complete" && kept_so_far(); }
};

TrialResult run_trial(const BenchInput& input, const EngineSpec& spec, const TrialLimits& limits);

/// For engines whose errors arrive through a C callback (MuJoCo's mju_user_error): ends the trial's
/// child with `status` ("failed", or "blew up" for an engine that detects its own instability) and the
/// message, keeping the measures so far.
[[noreturn]] void fail_trial(const std::string& message, const std::string& status = "failed");

}  // namespace affix::peers
