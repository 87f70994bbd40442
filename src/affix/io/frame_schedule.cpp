#include "affix/io/frame_schedule.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace affix {

namespace {

// Slack on the last frame time: k/fps ≤ duration·(1 + 1e-12), so that a duration of a whole number of
// frame periods includes its last frame despite rounding in k/fps.
constexpr double kFrameTimeSlack = 1e-12;
// Slack on "step time ≤ frame time", relative: n·dt ≤ t·(1 + 1e-9).
constexpr double kStepTimeSlack = 1e-9;

/// The last step n with n·dt ≤ t (relative slack), capped at the final step.
int last_step_not_after(double t, double dt, int steps) {
  const double n = std::floor(t / dt * (1.0 + kStepTimeSlack));
  return std::clamp(static_cast<int>(n), 0, steps);
}

}  // namespace

FrameSchedule::FrameSchedule(double dt, double duration, std::optional<double> output_fps)
    : dt_(dt), steps_(step_count(duration, dt)) {
  assert(!output_fps || *output_fps > 0.0);
  if (!output_fps) {
    frame_steps_.resize(static_cast<std::size_t>(steps_) + 1);
    for (int n = 0; n <= steps_; ++n) frame_steps_[static_cast<std::size_t>(n)] = n;
    return;
  }
  const double fps = *output_fps;
  const double last_time = duration * (1.0 + kFrameTimeSlack);
  for (int k = 0; k / fps <= last_time; ++k) {
    frame_steps_.push_back(last_step_not_after(k / fps, dt, steps_));
  }
}

}  // namespace affix
