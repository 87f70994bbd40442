#pragma once
// `settings.ipc` of a scene file (README, settings.ipc): the ipc solver's own settings, read and
// validated by the solver from the raw block the scene keeps (Settings::solver_settings). The member
// initialisers below are the only home of the defaults (STYLE.md practice 8); the README repeats them,
// and tests/solvers/test_readme_defaults.cpp checks that the two agree.
#include <filesystem>
#include <optional>

#include "affix/scene/scene.hpp"
#include "affix/solvers/ipc/joint_solver_kind.hpp"

namespace affix {

struct IpcSettings {
  double dhat = 1e-3;                ///< barrier activation distance d̂ (m, absolute)
  double epsv = 1e-3;                ///< friction static/dynamic transition speed ε_v (m/s)
  std::optional<double> kappa;       ///< barrier stiffness κ (N/m: κ·b is an energy); absent or "auto": adaptive
  double tolerance = 3e-3;           ///< Newton stop: ‖Δx‖∞ / (h · L) below this (1/s), L = island size (README: why not IPC's 1e-2)
  int max_iterations = 100;          ///< Newton iteration cap per step (reported when hit)
  int friction_iterations = 1;       ///< most lagged-friction solves per step; stops when Σμλ changes < 1% (Chen 2022 §6.1)
  JointSolverKind linear_solver = JointSolverKind::automatic;  ///< the Newton step's solve with linear joints (joint_step.hpp)

  friend bool operator==(const IpcSettings&, const IpcSettings&) = default;
};

/// The ipc settings of a scene's settings (settings.solver_settings["ipc"]; the defaults when absent).
/// `file` is the scene file, named in messages. Throws InputError naming the file, the JSON path
/// (`settings.ipc.dhat`) and what was expected, as the scene loader does for its own fields.
IpcSettings read_ipc_settings(const Settings& settings, const std::filesystem::path& file);

}  // namespace affix
