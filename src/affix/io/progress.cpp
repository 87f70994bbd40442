#include "affix/io/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

namespace affix {

ProgressLine::ProgressLine(std::ostream& out, int total_steps, bool enabled)
    : out_(out), total_steps_(total_steps), enabled_(enabled), start_(Clock::now()) {}

ProgressLine ProgressLine::for_stderr(int total_steps, bool quiet) {
  return ProgressLine(std::cerr, total_steps, !quiet && ::isatty(STDERR_FILENO) == 1);
}

void ProgressLine::update(int steps_done, double time) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (printed_ && now - last_print_ < kInterval) return;
  last_print_ = now;
  print(steps_done, time);
}

void ProgressLine::finish(int steps_done, double time) {
  if (!enabled_) return;
  print(steps_done, time);
  out_ << '\n' << std::flush;
}

void ProgressLine::print(int steps_done, double time) {
  const double elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  const double ms_per_step = steps_done > 0 ? elapsed_ms / steps_done : 0.0;
  char text[128];
  std::snprintf(text, sizeof text, "step %d/%d  t = %.4g s  %.3g ms/step", steps_done, total_steps_,
                time, ms_per_step);
  std::string line = text;
  if (capped_ > 0 || warnings_ > 0) {
    std::snprintf(text, sizeof text, "  [%d capped, %d warnings]", capped_, warnings_);
    line += text;
  }
  const std::size_t length = line.size();
  // Spaces over whatever the previous, longer line left on screen.
  if (length < last_length_) line.append(last_length_ - length, ' ');
  last_length_ = length;
  out_ << '\r' << line << std::flush;
  printed_ = true;
}

}  // namespace affix
