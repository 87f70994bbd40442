// The joint scenes of examples/joints/ are written by scripts/make_joint_scenes.py, and the physics
// tests and the README trust them to be what the script says. A hand edit of a file, or a script
// change that was not re-run, makes the two drift apart: regenerate them into a temporary directory
// and require every committed file to match its regenerated copy byte for byte.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

/// The python3 executable on PATH (posix_spawn does not search PATH), if there is one.
std::optional<fs::path> find_python3() {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::stringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / "python3";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(JointFixtures, CommittedFilesAreWhatTheScriptWrites) {
  const std::optional<fs::path> python = find_python3();
  if (!python) GTEST_SKIP() << "python3 is not on PATH: cannot run scripts/make_joint_scenes.py";

  const fs::path source(AFFIX_SOURCE_DIR);
  const fs::path out = fs::temp_directory_path() / ("affix_joint_fixtures_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const test::CommandResult r =
      test::run_command({python->string(), (source / "scripts" / "make_joint_scenes.py").string(), out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  std::set<std::string> committed;
  for (const fs::directory_entry& entry : fs::directory_iterator(source / "examples" / "joints")) {
    if (entry.path().extension() == ".json") committed.insert(entry.path().filename().string());
  }
  std::set<std::string> written;
  for (const fs::directory_entry& entry : fs::directory_iterator(out)) {
    written.insert(entry.path().filename().string());
  }
  EXPECT_FALSE(committed.empty());
  EXPECT_EQ(committed, written) << "examples/joints/ and the script's output name different files";
  for (const std::string& name : committed) {
    if (!written.count(name)) continue;
    EXPECT_TRUE(read_bytes(source / "examples" / "joints" / name) == read_bytes(out / name))
        << "examples/joints/" << name << " differs from what scripts/make_joint_scenes.py writes: "
        << "run python3 scripts/make_joint_scenes.py and commit the result, or fix the script";
  }
  fs::remove_all(out);
}

}  // namespace
}  // namespace affix
