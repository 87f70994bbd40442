#pragma once
// Ctrl-C (SIGINT) and SIGTERM during a run: the run stops after the step in progress, keeps every
// file it wrote and says in summary.json that it was interrupted (DESIGN §4), instead of dying with
// its output half-written and no summary. A second signal ends the process at once: the first one
// restores the default action, so a run stuck in a long step can still be killed.
#include <memory>
#include <string>

namespace affix {

/// While alive, SIGINT and SIGTERM only raise a flag; the previous handlers come back on destruction.
/// Guards nest: an inner one (the run loop's inside the command's, which is already alive while the
/// scene loads) shares the outer one's flag, so a signal during loading is seen by the run loop.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  /// The signal that arrived since construction (SIGINT or SIGTERM), or 0.
  static int signal_received();
  /// "SIGINT", "SIGTERM", or "signal N".
  static std::string signal_name(int signal);

 private:
  struct Previous;
  std::unique_ptr<Previous> previous_;
};

}  // namespace affix
