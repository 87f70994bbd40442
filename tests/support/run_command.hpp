#pragma once
// Runs a program as a child process and captures its exit status, stdout and stderr: how the CLI
// tests see `affix` exactly as a user or a script does. POSIX only (posix_spawn); no shell is involved,
// so arguments need no quoting.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace affix::test {

struct CommandResult {
  int exit_code = -1;  ///< the status passed to exit(), or 128 + signal when killed by a signal
  std::string out;     ///< everything written to stdout
  std::string err;     ///< everything written to stderr
};

namespace detail {

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace detail

/// Runs argv[0] with the arguments argv[1…] in directory `cwd` (empty: the current one). The child's
/// stdout and stderr go to files beside each other in a scratch directory and are read back after it
/// exits; files, unlike pipes, cannot fill up and stall a chatty child.
inline CommandResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {}) {
  namespace fs = std::filesystem;
  const fs::path scratch = fs::temp_directory_path() / ("affix_cmd_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const std::string out_file = (scratch / "stdout").string();
  const std::string err_file = (scratch / "stderr").string();

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());

  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);

  pid_t pid = 0;
  const int spawn_error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) throw std::runtime_error("cannot start " + argv[0]);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("cannot wait for " + argv[0]);  // EINTR: wait again
  }
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = detail::slurp(out_file);
  result.err = detail::slurp(err_file);
  fs::remove_all(scratch);
  return result;
}

}  // namespace affix::test
