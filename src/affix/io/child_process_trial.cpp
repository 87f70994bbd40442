#include "affix/io/child_process_trial.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "affix/error.hpp"

namespace affix {

namespace {

constexpr int kInputErrorStatus = 2;  // the child's exit status after an InputError, whose text it sent

/// Everything `fd` holds until its writer closes it.
std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) text.append(buffer, static_cast<std::size_t>(got));
    else if (got == 0 || errno != EINTR) break;
  }
  return text;
}

/// The child's side: run `work`, send an InputError's text through `fd`, and leave with _exit, so that
/// nothing of the parent's (its stdio buffers, atexit handlers) runs twice.
[[noreturn]] void run_child(const std::function<void()>& work, int fd) {
  int status = 0;
  try {
    work();
  } catch (const InputError& e) {
    const std::string message = e.what();
    for (std::size_t sent = 0; sent < message.size();) {
      const ssize_t n = ::write(fd, message.data() + sent, message.size() - sent);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    status = kInputErrorStatus;
  } catch (...) {
    status = 1;  // not the file's fault: the parent meets it again when it does the work
  }
  ::_exit(status);
}

}  // namespace

void try_in_child_process(const std::function<void()>& work, const std::string& crash_message) {
  int fds[2];
  if (::pipe(fds) != 0) return;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(work, fds[1]);
  }
  ::close(fds[1]);
  const std::string message = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw InputError(crash_message + " (signal " + std::to_string(WTERMSIG(status)) + ", " +
                     ::strsignal(WTERMSIG(status)) + ")");
  if (WIFEXITED(status) && WEXITSTATUS(status) == kInputErrorStatus) throw InputError(message);
}

}  // namespace affix
