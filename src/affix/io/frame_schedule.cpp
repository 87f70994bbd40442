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
  return static_cast<int>(std::clamp(n, 0.0, static_cast<double>(steps)));
}

}  // namespace

// Nothing is stored per frame: a run of 10⁹ steps must not allocate gigabytes before its first step.
FrameSchedule::FrameSchedule(double dt, double duration, std::optional<double> output_fps)
    : dt_(dt), fps_(output_fps.value_or(0.0)), steps_(step_count(duration, dt)) {
  assert(!output_fps || *output_fps > 0.0);
  if (!output_fps) {
    frames_ = steps_ + 1;
    return;
  }
  // Frames k = 0, 1, … while k/fps ≤ duration·(1 + slack): start from the rounded quotient and settle
  // the rounding of k/fps either way.
  const double last_time = duration * (1.0 + kFrameTimeSlack);
  double k = std::floor(last_time * fps_);
  while ((k + 1.0) / fps_ <= last_time) k += 1.0;
  while (k > 0.0 && k / fps_ > last_time) k -= 1.0;
  frames_ = static_cast<int>(k) + 1;
  // The final state always reaches the output (DESIGN §4: frame k shows the last step with t ≤ k/fps):
  // where output_fps does not divide the run (a duration of 1.05 s at 10 fps, or steps that end past the
  // duration), the frames after the last period show it. At most two: the loader keeps 1/fps ≥ dt.
  while (step_of_frame(frames_ - 1) < steps_) ++frames_;
}

int FrameSchedule::step_of_frame(int frame) const {
  assert(frame >= 0 && frame < frames_);
  return fps_ > 0.0 ? last_step_not_after(frame / fps_, dt_, steps_) : frame;
}

}  // namespace affix
