#include "affix/app/settings_overrides.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/number_format.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/scene/time_steps.hpp"
#include "affix/solvers/registry.hpp"

namespace affix {

namespace {

// output_fps may equal 1/dt; the slack absorbs the rounding of fps·dt (as in the frame schedule).
constexpr double kFpsSlack = 1e-9;

void require_positive(const char* option, double value) {
  if (std::isfinite(value) && value > 0.0) return;
  // inf is > 0 but no step or duration ("--dt inf: expected a number > 0" read as a contradiction).
  throw InputError(std::string(option) + " " + format_shortest(value) + ": expected a finite number > 0");
}

void require_known_solver(const std::string& solver) {
  const std::vector<std::string> names = solver_names();
  if (std::find(names.begin(), names.end(), solver) != names.end()) return;
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  throw InputError("--solver " + excerpt(solver) + ": unknown solver (expected one of: " + known + ")");
}

/// The step and frame limits of the scene file (scene/time_steps.hpp), reported against the option
/// that was given: --duration when both were.
void require_within_limits(const SettingsOverrides& overrides, const Settings& settings) {
  if (!overrides.dt && !overrides.duration) return;  // the file's own values were checked on reading
  const std::string option = overrides.duration ? "--duration " + format_shortest(settings.duration)
                                                : "--dt " + format_shortest(settings.dt);
  if (auto breach = step_limit_breach(settings.duration, settings.dt)) {
    throw InputError(option + ": " + *breach);
  }
  if (!settings.output_fps) return;
  if (auto breach = frame_limit_breach(settings.duration, *settings.output_fps)) {
    throw InputError(option + ": " + *breach + " (settings.output_fps)");
  }
}

}  // namespace

std::optional<std::string> apply_overrides(const SettingsOverrides& overrides, Settings& settings) {
  std::optional<std::string> note;
  if (overrides.solver) {
    require_known_solver(*overrides.solver);
    settings.solver = *overrides.solver;
  }
  if (overrides.duration) {
    require_positive("--duration", *overrides.duration);
    settings.duration = *overrides.duration;
  }
  if (overrides.dt) {
    require_positive("--dt", *overrides.dt);
    settings.dt = *overrides.dt;
    // The file's output_fps was valid for the file's dt; a larger step makes it too fast (header).
    if (settings.output_fps && *settings.output_fps * settings.dt > 1.0 + kFpsSlack) {
      note = "--dt " + format_shortest(settings.dt) + ": settings.output_fps " + format_shortest(*settings.output_fps) +
             " exceeds 1/dt = " + format_shortest(1.0 / settings.dt) + "; every step is written, " +
             format_shortest(1.0 / settings.dt) + " frames per second";
      // No output_fps rather than 1/dt: a frame schedule of 1/dt stops at the last frame time ≤ duration, and
      // the final step (past it when duration is not a multiple of dt) would go unwritten.
      settings.output_fps.reset();
    }
  }
  require_within_limits(overrides, settings);
  return note;
}

}  // namespace affix
