#pragma once
// `settings.impulse` of a scene file (README, settings.impulse): the impulse solver's own settings, read
// and validated by the solver from the raw block the scene keeps. The member initialisers are the only
// home of the defaults; the README repeats them and tests/solvers/test_readme_defaults.cpp compares.
#include <filesystem>

#include "affix/scene/scene.hpp"

namespace affix {

/// The free flight between impulses (impulse_simulator.hpp): symplectic Euler (Tomcin §3's step, whose
/// free fall is implicit Euler's) or velocity Verlet with RATTLE's velocity projection (App. A's aim).
enum class ImpulseIntegration { symplectic_euler, velocity_verlet };

struct ImpulseSettings {
  /// ε_P (m): the joint correction stops once the largest predicted joint violation ‖c⁽ˡ⁺¹⁾‖∞ is below
  /// it (Tomcin 2014 §3).
  double position_tolerance = 1e-6;
  /// The joint correction's iteration cap per step (Tomcin §3: 50 for all their examples); a step that
  /// reaches it counts in stats.csv's hit_iteration_cap.
  int max_iterations = 50;
  /// ε_T: the Tikhonov regularisation α = ε_T‖A‖₁ added to the diagonal of A = J M⁻¹ Jᵀ, which makes
  /// the redundant rows of closed loops solvable (Tomcin §4: 1e-10 for most of their examples).
  double tikhonov = 1e-10;
  ImpulseIntegration integration = ImpulseIntegration::symplectic_euler;
  /// e: an impact's separating normal velocity is −e times its approaching one (Tomcin §7's collision
  /// phase); 0 is inelastic, 1 elastic.
  double restitution = 0.0;
  /// Body splitting (Tomcin §5, body_splitting.hpp): 0 chooses the parts of each body carrying more than
  /// 8 joints automatically (one per 4 joints), 1 splits nothing, N ≥ 2 gives each such body N parts.
  int split_parts = 0;

  friend bool operator==(const ImpulseSettings&, const ImpulseSettings&) = default;
};

const char* to_string(ImpulseIntegration integration);

/// The impulse settings of a scene's settings (the defaults when absent). Throws InputError naming the
/// file, the JSON path (`settings.impulse.tikhonov`) and what was expected.
ImpulseSettings read_impulse_settings(const Settings& settings, const std::filesystem::path& file);

}  // namespace affix
