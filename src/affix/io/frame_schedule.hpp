#pragma once
// Which states of a run become frames of trajectory.csv (DESIGN §4).
//
// A run takes N = max(1, ceil(duration/dt − 1e-9)) steps (scene/time_steps.hpp); step n leaves the
// state at time n·dt (step 0 is the initial state). Output frames sit at times k/output_fps for
// k = 0, 1, … while k/output_fps ≤ duration·(1 + 1e-12), and then one or two more while the last one does
// not show the final step (output_fps not dividing the run: the final state always reaches the output).
// Frame k is the state after the last step whose time is ≤ k/output_fps — never an interpolation —
// where "≤" allows a relative 1e-9, so that output_fps = 1/dt writes every step even though k/fps and
// n·dt round differently. Without output_fps every step is a frame.
#include <optional>

#include "affix/scene/time_steps.hpp"  // step_count, and the limit the readers hold runs to

namespace affix {

class FrameSchedule {
 public:
  /// dt > 0, duration > 0, output_fps > 0 when set, and at most kMaxSteps steps and frames (the scene
  /// loader and the CLI validate these).
  FrameSchedule(double dt, double duration, std::optional<double> output_fps);

  int steps() const { return steps_; }
  int frames() const { return frames_; }
  /// The step whose state frame k (0 ≤ k < frames()) shows; non-decreasing in k, and in [0, steps()].
  int step_of_frame(int frame) const;
  /// The simulated time of the state after step n, n·dt (a product, never an accumulated sum).
  double step_time(int step) const { return step * dt_; }

 private:
  double dt_;
  double fps_;  // 0: every step is a frame
  int steps_;
  int frames_;
};

}  // namespace affix
