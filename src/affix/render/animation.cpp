#include "affix/render/animation.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "affix/error.hpp"
#include "affix/render/frame_selection.hpp"

extern char** environ;

namespace affix {

namespace fs = std::filesystem;

std::optional<fs::path> find_executable(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
  }
  return std::nullopt;
}

fs::path require_ffmpeg(const std::string& option) {
  if (auto ffmpeg = find_executable("ffmpeg")) return *ffmpeg;
  throw InputError(option + " needs the ffmpeg executable, which is not on PATH: install it "
                   "(scripts/install-deps.sh, Debian package ffmpeg) or leave out " + option +
                   " to write the PNG frames only");
}

namespace {

/// Runs `argv` (argv[0] a full path) with stdout and stderr into `log`; returns its exit status.
int run_process(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("cannot wait for " + argv[0]);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string tail(const fs::path& file, std::size_t chars) {
  std::ifstream in(file);
  std::string text(std::istreambuf_iterator<char>(in), {});
  return text.size() > chars ? text.substr(text.size() - chars) : text;
}

}  // namespace

void encode_animation(const fs::path& pictures_dir, int count, int fps, const fs::path& file,
                      AnimationFormat format) {
  const fs::path ffmpeg = require_ffmpeg(format == AnimationFormat::kGif ? "--gif" : "--mp4");
  if (file.has_parent_path()) {
    std::error_code error;
    fs::create_directories(file.parent_path(), error);
    if (error) throw InputError(file.parent_path().string() + ": cannot create the directory: " + error.message());
  }
  std::vector<std::string> argv = {ffmpeg.string(), "-hide_banner", "-loglevel", "error", "-y",
                                   "-framerate", std::to_string(fps), "-start_number", "0",
                                   "-i", (pictures_dir / kPicturePattern).string(),
                                   "-frames:v", std::to_string(count)};
  if (format == AnimationFormat::kGif) {
    argv.insert(argv.end(), {"-filter_complex",
                             "[0:v]split[a][b];[a]palettegen=stats_mode=full[p];"
                             "[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle",
                             "-loop", "0", "-f", "gif"});
  } else {
    argv.insert(argv.end(), {"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                             "-crf", "20", "-movflags", "+faststart", "-f", "mp4"});
  }
  // ffmpeg would take a name starting with '-' for an option.
  argv.push_back(file.string().starts_with('-') ? "./" + file.string() : file.string());
  const fs::path log = fs::temp_directory_path() / ("affix_ffmpeg_" + std::to_string(::getpid()) + ".log");
  const int status = run_process(argv, log);
  const std::string messages = tail(log, 600);
  std::error_code ignored;
  fs::remove(log, ignored);
  if (status != 0) throw std::runtime_error("ffmpeg failed (exit " + std::to_string(status) + ") making " + file.string() + ": " + messages);
}

}  // namespace affix
