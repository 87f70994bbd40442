#pragma once
// The checks on the options of `affix generate`. A generator is reached from the command line, so a
// bad value is reported against the option as the user typed it (`--links 0: expected a whole number
// from 1 to 100000`), as an InputError (exit 2), before anything is built.
#include <string>

namespace affix::generate {

/// Throws InputError "<option> <value>: expected a whole number from <min> to <max>" unless
/// min ≤ value ≤ max.
void require_count(const char* option, long long value, long long min, long long max);

/// Throws InputError unless value is finite and min ≤ value ≤ max (min > 0: "a number > 0, at most …").
void require_number(const char* option, double value, double min, double max);

/// Throws InputError "<what>: <bodies> bodies, more than the limit of kMaxBodies"
/// when `bodies` exceeds kMaxBodies; `what` names the options that set the count.
void require_body_limit(const std::string& what, long long bodies);

}  // namespace affix::generate
