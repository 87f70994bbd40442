#pragma once
// Numbers in the run's divergence messages (joint_tear, contact_depth): three significant digits, for
// reading; the output files have them all.
#include <cstdio>
#include <string>

namespace affix {

inline std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

}  // namespace affix
