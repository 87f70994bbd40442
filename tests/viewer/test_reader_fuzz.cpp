// `affix view` reads a run's output directory as untrusted input: a thousand seeded mutations of a
// real run's four files (support/run_output_fuzz.hpp) each give a page or an InputError naming the
// file — never another exception, never a crash — and the same through the `affix` executable for a
// handful of cases: exit 0 or 2, one line on stderr. The mesh mistakes of issue 9 (triangle indices
// out of range, a vertex array that is not a multiple of 3) are refused by name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>

#include "affix/error.hpp"
#include "affix/viewer/view_page.hpp"
#include "support/run_output_fuzz.hpp"

namespace affix::viewer {
namespace {

namespace fs = std::filesystem;

constexpr int kCases = 1000;
constexpr std::uint64_t kFirstSeed = 9'100'000;  // case i mutates with seed kFirstSeed + i

class ViewReaderFuzz : public test::RunOutputFuzzTest<ViewReaderFuzz> {
 public:
  static constexpr const char* kScratchName = "affix_view_fuzz_";
};

TEST_F(ViewReaderFuzz, ThePristineRunMakesAPage) {
  const ViewPage page = build_view_page(root_ / "pristine");
  EXPECT_EQ(page.bodies, 2);
  EXPECT_EQ(page.frames, 6);
}

TEST_F(ViewReaderFuzz, MutatedRunsGiveAPageOrAnInputErrorNamingTheFile) {
  ViewOptions options;
  options.pose_budget_bytes = 200;  // two frames of two bodies: decimation is exercised too
  for (int i = 0; i < test::fuzz_cases(kCases); ++i) {
    const std::uint64_t seed = kFirstSeed + static_cast<std::uint64_t>(i);
    std::string what;
    const fs::path dir = mutated(seed, what);
    if (test::fuzz_trace()) std::cerr << "seed " << seed << ": " << what << std::endl;
    test::expect_input_error_at_worst([&] { build_view_page(dir, i % 2 == 0 ? options : ViewOptions{}); }, dir, seed,
                                      what);
    if (HasFailure()) {
      test::keep_failed_case(dir, seed);
      return;
    }
    fs::remove_all(dir);
  }
}

/// The InputError message of viewing `dir`, or "" when it succeeds.
std::string view_error(const fs::path& dir) {
  try {
    build_view_page(dir);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(ViewReaderFuzz, TriangleIndicesOutOfRangeAndOddArraysAreRefusedByName) {
  const auto triangle = [](nlohmann::json value) {
    return [value](nlohmann::json& m) { m["meshes"][0]["triangles"][4] = value; };
  };
  // The box (meshes[0], body 0's) has 8 vertices: -1 and 8 are out of range, 2.5 is no index.
  EXPECT_NE(view_error(with_meshes("minus_one", triangle(-1))).find("meshes.json: meshes[0].triangles[4]: expected a vertex index, a whole number in [0, 8), got -1"),
            std::string::npos);
  EXPECT_NE(view_error(with_meshes("eight", triangle(8))).find("meshes[0].triangles[4]: expected a vertex index"), std::string::npos);
  EXPECT_NE(view_error(with_meshes("fraction", triangle(2.5))).find("meshes[0].triangles[4]"), std::string::npos);
  const std::string odd = view_error(with_meshes("odd", [](nlohmann::json& m) { m["meshes"][1]["vertices"].erase(0); }));
  EXPECT_NE(odd.find("meshes.json: meshes[1].vertices: expected a multiple of 3 numbers"), std::string::npos) << odd;
  const std::string renamed = view_error(with_meshes("renamed", [](nlohmann::json& m) { m["bodies"][1]["name"] = "other"; }));
  EXPECT_NE(renamed.find("trajectory.csv: line 3: body 'ball, \"quoted\"' where meshes.json has 'other'"), std::string::npos)
      << renamed;
}

TEST_F(ViewReaderFuzz, TheExecutableExitsCleanly) {
  test::expect_clean_exit({"view", (root_ / "pristine").string()}, "the pristine run");
  const fs::path bad = with_meshes("exe_minus_one", [](nlohmann::json& m) { m["meshes"][0]["triangles"][0] = -1; });
  test::expect_clean_exit({"view", bad.string()}, "triangle index -1");
  for (std::uint64_t seed = kFirstSeed; seed < kFirstSeed + 6; ++seed) {
    std::string what;
    const fs::path dir = mutated(seed, what);
    test::expect_clean_exit({"view", dir.string()}, "seed " + std::to_string(seed) + " (" + what + ")");
  }
}

}  // namespace
}  // namespace affix::viewer
