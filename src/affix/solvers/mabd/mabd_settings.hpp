#pragma once
// `settings.mabd` of a scene file (README, settings.mabd): the mabd solver's own settings, read and
// validated by the solver from the raw block the scene keeps. The member initialisers are the only home
// of the defaults; the README repeats them and tests/solvers/test_readme_defaults.cpp compares.
#include <filesystem>
#include <optional>
#include <string>

#include "affix/scene/scene.hpp"
#include "affix/solvers/mabd/corotated_body.hpp"
#include "affix/solvers/mabd/dual_solver.hpp"

namespace affix {

struct MabdSettings {
  /// Young's modulus E (Pa) of every body; absent: 8 × each body's `stiffness`, the modulus whose
  /// Chen 2022 energy E/8·‖FᵀF − I‖² is the ipc solver's orthogonality stiffness (README, bodies).
  std::optional<double> youngs_modulus;
  double poisson_ratio = 0.3;       ///< ν, in [0, 0.5)
  int iterations = 1;               ///< most Newton iterations per step (He 2026: one suffices)
  double tolerance = 1e-4;          ///< stop early when max (‖Δp‖∞ + r‖ΔA‖∞)/(h·L) is below this (1/s)
  /// After `iterations`, more (up to max_iterations in all) while some body's stretch ½ max|‖aᵢ‖² − 1| is above
  /// strain_tolerance and the Newton step above `tolerance`: a stiff body strained that far is a
  /// linearisation left unconverged (a fast turn in one step), not its load (mabd_simulator.cpp).
  double strain_tolerance = 1e-3;
  int max_iterations = 8;
  RotationExtraction rotation = RotationExtraction::polar;
  DualSolverKind dual_solver = DualSolverKind::automatic;  ///< picked from the joint graph, or forced
  /// The Gauss–Seidel dual solve's relative residual to stop at and its most sweeps (dual_gauss_seidel.hpp).
  double gauss_seidel_tolerance = GaussSeidelLimits{}.tolerance;
  int gauss_seidel_iterations = GaussSeidelLimits{}.sweeps;
  /// Penalty stiffness k (N/m) of every contact; absent: 100 m / h² (penalty_contact.hpp).
  std::optional<double> contact_stiffness;
  double contact_thickness = 1e-3;  ///< ξ (m): body–body contacts act within this distance
  /// Body–body penalty contact (experimental, README); off, only the ground is felt, and a scene's
  /// bodies need no per-step vertex transforms or broad phase.
  bool body_contact = false;

  friend bool operator==(const MabdSettings&, const MabdSettings&) = default;
};

const char* to_string(RotationExtraction kind);

/// The mabd settings of a scene's settings (the defaults when absent). Throws InputError naming the
/// file, the JSON path (`settings.mabd.poisson_ratio`) and what was expected.
MabdSettings read_mabd_settings(const Settings& settings, const std::filesystem::path& file);

}  // namespace affix
