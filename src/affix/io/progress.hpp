#pragma once
// A one-line progress report for a person watching a terminal:
//   step 120/500  t = 1.2 s  3.4 ms/step  [2 capped, 5 warnings]
// (the bracket once a step has hit the iteration cap or counted a warning), rewritten in place with
// '\r', at most about ten times a second so that printing never slows a run
// of fast steps. Silent when the user asked for --quiet or when stderr is not a terminal (a log file
// or a pipe would collect one line per update).
#include <chrono>
#include <ostream>

namespace affix {

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;

  /// Reports to `out` (normally std::cerr) for a run of `total_steps`; `enabled` false makes every
  /// call a no-op.
  ProgressLine(std::ostream& out, int total_steps, bool enabled);

  /// The default: stderr, enabled unless `quiet` or stderr is not a tty.
  static ProgressLine for_stderr(int total_steps, bool quiet);

  /// After a step: `steps_done` steps, simulated time `time`. Prints only if the last print is at
  /// least kInterval ago (the first update always prints).
  void update(int steps_done, double time);

  /// Steps that hit the iteration cap and warnings counted so far, shown from the next print on.
  void set_alerts(int capped_steps, int warnings) { capped_ = capped_steps, warnings_ = warnings; }

  /// Prints the final state and ends the line, so that what follows starts on a fresh line.
  void finish(int steps_done, double time);

  static constexpr std::chrono::milliseconds kInterval{100};

 private:
  void print(int steps_done, double time);

  std::ostream& out_;
  int total_steps_;
  bool enabled_;
  bool printed_ = false;
  Clock::time_point start_;
  Clock::time_point last_print_;
  std::size_t last_length_ = 0;
  int capped_ = 0;
  int warnings_ = 0;  // characters of the previous line, to blank a longer leftover
};

}  // namespace affix
