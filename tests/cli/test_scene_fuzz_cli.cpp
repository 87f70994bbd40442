// The real `affix validate` on mutated scene files (tests/scene/scene_mutator.hpp): whatever the file,
// the command exits 0, 1 or 2 — never by a signal — and reports in at most one error line (DESIGN §4),
// never a raw C++ exception text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scene/scene_mutator.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

constexpr int kCases = 30;
constexpr std::uint64_t kFirstSeed = 0xC11F5EED;  // not the in-process test's: other cases

TEST(SceneFuzzCli, ValidateExitsCleanlyWithOneLineOnEveryMutatedScene) {
  const fs::path dir = fs::temp_directory_path() / ("affix_scene_fuzz_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "cube.obj") << test::kSeedCubeObj;
  std::vector<std::string> seeds;
  for (const fs::path& file : test::example_seed_files(AFFIX_SOURCE_DIR)) seeds.push_back(test::read_file(file));
  for (const std::string& text : test::handwritten_seeds()) seeds.push_back(text);

  for (int k = 0; k < kCases; ++k) {
    const std::uint64_t case_seed = kFirstSeed + static_cast<std::uint64_t>(k);
    const fs::path file = dir / ("case_" + std::to_string(case_seed) + ".json");
    std::ofstream(file) << test::mutate_scene(seeds[static_cast<std::size_t>(k) % seeds.size()], case_seed);
    const test::CommandResult r = test::run_command({AFFIX_EXECUTABLE, "validate", file.string()});
    SCOPED_TRACE("case " + std::to_string(k) + ", seed " + std::to_string(case_seed) + ": " + file.string());

    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << "exit " << r.exit_code << "\n" << r.err;
    EXPECT_EQ(r.err.find("std::"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("what()"), std::string::npos) << r.err;
    // Warnings may come first; an error is the one last line.
    std::istringstream lines(r.err);
    int errors = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("affix: warning: ", 0) == 0) continue;
      ++errors;
      EXPECT_EQ(line.rfind("affix: error: ", 0), 0u) << line.substr(0, 300);
    }
    EXPECT_EQ(errors, r.exit_code == 0 ? 0 : 1) << r.err.substr(0, 1000);
    if (!testing::Test::HasFailure()) fs::remove(file);  // failing cases stay for reproduction
  }
  if (!testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace affix
