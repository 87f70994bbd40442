#include "affix/io/interrupt.hpp"

#include <csignal>
#include <memory>

namespace affix {

namespace {

volatile std::sig_atomic_t g_signal = 0;
int g_depth = 0;  // guards alive; only the outermost installs and restores the handlers

extern "C" void on_signal(int signal) {
  g_signal = signal;
  std::signal(signal, SIG_DFL);  // async-signal-safe; the next one of the same kind ends the process
}

/// Installs `action` for `signal` unless the signal is ignored: a shell starts background jobs with
/// SIGINT ignored, and `nohup`-style wrappers ignore others; that choice is the user's to keep.
void catch_unless_ignored(int signal, const struct sigaction& action, struct sigaction& previous) {
  sigaction(signal, nullptr, &previous);
  if (previous.sa_handler != SIG_IGN) sigaction(signal, &action, nullptr);
}

}  // namespace

struct InterruptGuard::Previous {
  struct sigaction interrupt, terminate;
};

InterruptGuard::InterruptGuard() {
  if (g_depth++ > 0) return;  // nested: the outer guard holds the handlers and the flag
  previous_ = std::make_unique<Previous>();
  g_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write that the signal interrupts resumes instead of failing
  catch_unless_ignored(SIGINT, action, previous_->interrupt);
  catch_unless_ignored(SIGTERM, action, previous_->terminate);
}

InterruptGuard::~InterruptGuard() {
  if (--g_depth > 0) return;
  sigaction(SIGINT, &previous_->interrupt, nullptr);
  sigaction(SIGTERM, &previous_->terminate, nullptr);
}

int InterruptGuard::signal_received() { return g_signal; }

std::string InterruptGuard::signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

}  // namespace affix
