#pragma once
// How many steps and output frames a run takes, and the limit on both. The scene reader and the
// command-line overrides refuse settings beyond the limit (exit 2, naming the field or the option), so
// that the writers and solvers, which count steps and frames in int, never see more.
//
// A run takes N = max(1, ceil(duration/dt − 1e-9)) steps: the 1e-9 keeps a duration that is a whole
// number of steps, such as 1.0 / 0.01 = 100.00000000000001, from taking one step too many, and a
// duration shorter than dt still takes one step. With output_fps it writes the frames at k/output_fps
// for k = 0, 1, … up to duration (io/frame_schedule.hpp).
#include <optional>
#include <string>

namespace affix {

/// The most steps a run may take, and the most frames it may write: 10⁹, well inside an int (the
/// step and frame counters) and more than any run will finish.
inline constexpr int kMaxSteps = 1'000'000'000;

/// N for duration > 0 and dt > 0, as a double so that it can exceed kMaxSteps (or be inf) without
/// overflowing.
double steps_needed(double duration, double dt);

/// N as an int; requires steps_needed(duration, dt) ≤ kMaxSteps (the readers check it).
int step_count(double duration, double dt);

/// The number of frames written with `output_fps`: ceil(duration·output_fps) + 1 (the initial state, one
/// frame per frame period, and one that shows the final state where the periods do not divide the
/// duration), as a double like steps_needed.
double frames_needed(double duration, double output_fps);

/// What is wrong when duration/dt needs more than kMaxSteps steps, as the tail of a message
/// ("expected at most 1000000000 steps, got duration/dt = …"); nullopt when it is within the limit.
std::optional<std::string> step_limit_breach(double duration, double dt);

/// The same for the frames of output_fps.
std::optional<std::string> frame_limit_breach(double duration, double output_fps);

}  // namespace affix
