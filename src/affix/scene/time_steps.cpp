#include "affix/scene/time_steps.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "affix/math/number_text.hpp"

namespace affix {

namespace {

// Slack on the last frame time, as in FrameSchedule: k/fps ≤ duration·(1 + 1e-12).
constexpr double kFrameTimeSlack = 1e-12;

/// Shortest round-trip text of a number; an overflowing count (1e308 s / 1e-308 s) reads `inf`, where
/// JSON's dump() wrote `null`.
std::string text(double value) { return number_text(value); }

}  // namespace

double steps_needed(double duration, double dt) {
  assert(duration > 0.0 && dt > 0.0);
  return std::max(1.0, std::ceil(duration / dt - 1e-9));
}

int step_count(double duration, double dt) {
  const double n = steps_needed(duration, dt);
  assert(n <= kMaxSteps);
  return static_cast<int>(n);
}

double frames_needed(double duration, double output_fps) {
  assert(duration > 0.0 && output_fps > 0.0);
  // The frames of whole periods, plus the one that shows the final state where the periods do not divide
  // the duration (io/frame_schedule.hpp).
  return std::ceil(duration * (1.0 - kFrameTimeSlack) * output_fps) + 1.0;
}

std::optional<std::string> step_limit_breach(double duration, double dt) {
  const double n = steps_needed(duration, dt);
  if (n <= kMaxSteps) return std::nullopt;
  return "expected at most " + std::to_string(kMaxSteps) + " steps, got duration/dt = " + text(duration) +
         " s / " + text(dt) + " s = " + text(n) + " steps";
}

std::optional<std::string> frame_limit_breach(double duration, double output_fps) {
  const double n = frames_needed(duration, output_fps);
  if (n <= kMaxSteps) return std::nullopt;
  return "expected at most " + std::to_string(kMaxSteps) + " output frames, got duration·output_fps = " +
         text(duration) + " s · " + text(output_fps) + " /s = " + text(n) + " frames";
}

}  // namespace affix
