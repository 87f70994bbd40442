#pragma once
// How every number in the run output is printed (DESIGN §4): round-trip, so that reading a value back
// gives the very double that was written. 17 significant digits are always enough for an IEEE double;
// the non-finite values are spelled `inf`, `-inf` and `nan`, which strtod and Python's float() accept.
#include <string>

namespace affix {

/// `value` with 17 significant digits (shorter when exact: `1`, `0.5`), independent of the locale.
std::string format_number(double value);

/// The shortest text that still reads back as `value` (`0.1`, not `0.10000000000000001`): for
/// messages and reports that a person reads. Non-finite values as in format_number.
std::string format_shortest(double value);

/// Appends format_number(value) to `out` without a temporary string (the writers call this per cell).
void append_number(std::string& out, double value);

}  // namespace affix
