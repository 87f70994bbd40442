// `affix run` stops a run whose contact let a body sink into another or into the ground
// (io/contact_depth.hpp): on every solver whose contact is not intersection-free, a 0.5 m box on the
// ground crushed by a kinematic press moving down at 2 m/s (no solution keeps them apart: the overlap
// grows by 2 cm a step) ends with exit 1, summary.json not completed, and a message with the step, its
// time and the two bodies; with the press standing still above it, the box rests and the run completes.
// mabd's penalty ground is crushed by a 10⁹ N push on the box instead: its kinematic press passes through
// the box without a contact (a finding of this test, README's mabd section).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

using test::read_json;

class ContactDepthRun : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("affix_depth_" + GetParam() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// A 0.5 m, 10 kg box resting on the ground under a 1 m × 1 m × 0.2 m kinematic press 5 cm above it
  /// moving down at `speed`, 0.5 s at h = 0.01.
  test::CommandResult run(double speed) const {
    nlohmann::json scene = nlohmann::json::parse(R"({"version": 1, "ground": {}, "bodies": [
        {"name": "crate", "shape": {"box": [0.5, 0.5, 0.5]}, "mass": 10, "position": [0, 0, 0.2501]},
        {"name": "press", "shape": {"box": [1, 1, 0.2]}, "position": [0, 0, 0.6501]}]})");
    scene["settings"] = {{"dt", 0.01}, {"duration", 0.5}, {"solver", GetParam()}};
    scene["bodies"][1]["kinematic"] = {{"velocity", {0, 0, -speed}}};
    if (GetParam() == "mabd" && speed > 0.0)
      scene["forces"] = nlohmann::json::parse(R"([{"body": "crate", "force": [0, 0, -1e9]}])");
    std::ofstream(dir_ / "scene.json") << scene.dump(2);
    return test::run_command({AFFIX_EXECUTABLE, "run", (dir_ / "scene.json").string(), "--out", (dir_ / "out").string(), "-q"});
  }

  fs::path dir_;
};

TEST_P(ContactDepthRun, ABoxCrushedByAPressIsADivergenceNamingTheStepAndTheBodies) {
  const test::CommandResult r = run(2.0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::size_t at = r.err.find(" m (the smaller body's smallest half-extent)");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_NE(r.err.find("): body '"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("' sank "), std::string::npos) << r.err;
  // Into the ground (the crate: limit 0.25 m) or the press into the crate (the press: 0.1 m).
  EXPECT_TRUE(r.err.find("into the ground, past the limit of 0.25 m") != std::string::npos ||
              r.err.find("into body 'crate', past the limit of 0.1 m") != std::string::npos ||
              r.err.find("into body 'press', past the limit of 0.1 m") != std::string::npos)
      << r.err;
  const nlohmann::json summary = read_json(dir_ / "out" / "summary.json");
  EXPECT_EQ(summary["completed"], false);
  EXPECT_LT(summary["steps"].get<int>(), 50);
  EXPECT_EQ(summary["error"].get<std::string>().rfind("step ", 0), 0u) << summary["error"];
}

TEST_P(ContactDepthRun, ABoxUnderAPressStandingStillCompletes) {
  const test::CommandResult r = run(0.0);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir_ / "out" / "summary.json")["completed"], true);
}

INSTANTIATE_TEST_SUITE_P(NotIntersectionFree, ContactDepthRun, ::testing::Values("compliant", "impulse", "mabd"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace affix
