#pragma once
// `affix run` options that replace a scene file's settings. They are held to the same rules as the
// file (dt > 0, duration > 0, a known solver, output_fps ≤ 1/dt, at most kMaxSteps steps and output
// frames, scene/time_steps.hpp), and a breach is reported against
// the option, not the file, because the option is what the user has to change.
#include <optional>
#include <string>

#include "affix/scene/scene.hpp"

namespace affix {

struct SettingsOverrides {
  std::optional<std::string> solver;  ///< --solver
  std::optional<double> dt;           ///< --dt (s)
  std::optional<double> duration;     ///< --duration (s)
};

/// Replaces the overridden fields of `settings`. Throws InputError naming the option
/// (`--dt 0.1: settings.output_fps 100 exceeds 1/dt = 10`) when the result breaks a rule.
void apply_overrides(const SettingsOverrides& overrides, Settings& settings);

}  // namespace affix
