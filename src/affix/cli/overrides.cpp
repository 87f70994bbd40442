#include "affix/cli/overrides.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "affix/error.hpp"
#include "affix/io/number_format.hpp"
#include "affix/solvers/simulator.hpp"

namespace affix::cli {

namespace {

// output_fps may equal 1/dt; the slack absorbs the rounding of fps·dt (as in the frame schedule).
constexpr double kFpsSlack = 1e-9;

void require_positive(const char* option, double value) {
  if (std::isfinite(value) && value > 0.0) return;
  throw InputError(std::string(option) + " " + format_shortest(value) + ": expected a number > 0");
}

void require_known_solver(const std::string& solver) {
  const std::vector<std::string> names = solver_names();
  if (std::find(names.begin(), names.end(), solver) != names.end()) return;
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  throw InputError("--solver " + solver + ": unknown solver (expected one of: " + known + ")");
}

}  // namespace

void apply_overrides(const SettingsOverrides& overrides, Settings& settings) {
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
    // The file's output_fps was valid for the file's dt; a larger step may make it too fast.
    if (settings.output_fps && *settings.output_fps * settings.dt > 1.0 + kFpsSlack) {
      throw InputError("--dt " + format_shortest(settings.dt) + ": settings.output_fps " +
                       format_shortest(*settings.output_fps) + " exceeds 1/dt = " +
                       format_shortest(1.0 / settings.dt) + " (lower --dt or output_fps)");
    }
  }
}

}  // namespace affix::cli
