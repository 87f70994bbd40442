#pragma once
// `affix run` options that replace a scene file's settings. They are held to the same rules as the
// file (dt > 0, duration > 0, a known solver, at most kMaxSteps steps and output frames,
// scene/time_steps.hpp), and a breach is reported against the option, not the file, because the option
// is what the user has to change. One rule gives way instead: output_fps ≤ 1/dt. The file's output_fps
// was chosen for the file's dt, and a --dt larger than 1/output_fps (the README's "stable at h = 0.1"
// on an example written at 50 frames per second) lowers it to 1/dt, every step a frame, with a note —
// as `affix generate` makes its frame rate follow --dt.
#include <optional>
#include <string>

#include "affix/scene/scene.hpp"

namespace affix {

struct SettingsOverrides {
  std::optional<std::string> solver;  ///< --solver
  std::optional<double> dt;           ///< --dt (s)
  std::optional<double> duration;     ///< --duration (s)
};

/// Replaces the overridden fields of `settings`. Throws InputError naming the option (`--dt -1: expected
/// a number > 0`) when the result breaks a rule. Returns a note for the user when it had to lower
/// output_fps to 1/dt (header), else nothing.
std::optional<std::string> apply_overrides(const SettingsOverrides& overrides, Settings& settings);

}  // namespace affix
