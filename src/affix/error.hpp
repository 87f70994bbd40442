#pragma once
// Errors that reach the user. Three tiers (STYLE.md practice 9): assert() for internal invariants,
// InputError for bad user input (exit 2), SimulationError for a run that fails (exit 1), and
// OutputError for an output file that cannot be created or written (the run stops, exit 1).
#include <stdexcept>
#include <string>

namespace affix {

/// Bad input: the message names the file, the JSON path (`bodies[3].shape.box`) and what was expected.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A simulation that could not go on (divergence, non-finite state): says at which step and why.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An output file that could not be created or written (disk full, no permission, a directory in the
/// way): the message names the file and says why, in the system's words.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace affix
