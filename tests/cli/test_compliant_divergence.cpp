// Divergence of the compliant solver is reported, never a "completed" run (io/joint_tear.hpp): the
// hostile pass's scenes whose joints tore apart at h = 0.1 s — the 1,000,000:1 chain of
// examples/compliant/mass_ratio_chain.json under "constraint_damping" (3,979 m of joint gap and
// 6.6·10⁷ J, exit 0, before), a 10¹²:1 hinge pair and a 10⁻¹² kg link under a 10⁶ kg block (21–491 m)
// — exit 1 naming the step, its time and the joint, with summary.json not completed; the compliant
// examples run as they are, and none trips the check.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

class CompliantDivergenceTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_cdiv_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_scene(const nlohmann::json& scene) const {
    std::ofstream(dir_ / "scene.json") << scene.dump(1);
    return dir_ / "scene.json";
  }
  test::CommandResult run(const fs::path& scene, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {AFFIX_EXECUTABLE, "run", scene.string(), "--out", (dir_ / "out").string(), "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_command(args);
  }
  nlohmann::json summary() const {
    std::ifstream in(dir_ / "out" / "summary.json");
    return nlohmann::json::parse(in);
  }
  /// The run failed with a torn joint at `step`: exit 1, the message on stderr and in the summary.
  void expect_torn(const test::CommandResult& r, int step, const std::string& joint) const {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const std::string prefix = "step " + std::to_string(step) + " (t = ";
    EXPECT_NE(r.err.find(prefix), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("joint '" + joint + "'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("came apart"), std::string::npos) << r.err;
    const nlohmann::json s = summary();
    EXPECT_EQ(s["completed"], false);
    EXPECT_EQ(s["steps"], step);
    EXPECT_EQ(s["error"].get<std::string>().rfind(prefix, 0), 0u) << s["error"];
  }

  fs::path dir_;
};

nlohmann::json load(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

/// Two 0.2 m cubes hanging from the world by two joints of `type` at h = 0.1 s (the hostile pass's).
nlohmann::json two_links(const char* type, double m1, double m2, const nlohmann::json& p1, const nlohmann::json& p2,
                         const nlohmann::json& anchor2) {
  nlohmann::json s = nlohmann::json::parse(R"({"version": 1,
      "settings": {"dt": 0.1, "duration": 10, "solver": "compliant"}, "bodies": [
        {"name": "a", "shape": {"box": [0.2, 0.2, 0.2]}}, {"name": "b", "shape": {"box": [0.2, 0.2, 0.2]}}],
      "joints": [{"body1": "a", "body2": "world", "anchor": [0, 0, 0], "axis": [0, 1, 0]},
                 {"body1": "b", "body2": "a", "axis": [0, 1, 0]}]})");
  s["bodies"][0]["mass"] = m1;
  s["bodies"][0]["position"] = p1;
  s["bodies"][1]["mass"] = m2;
  s["bodies"][1]["position"] = p2;
  s["joints"][1]["anchor"] = anchor2;
  for (auto& j : s["joints"]) {
    j["type"] = type;
    if (std::string(type) == "ball") j.erase("axis");
  }
  return s;
}

TEST_F(CompliantDivergenceTest, TheMillionToOneChainUnderConstraintDampingIsReportedAtItsFirstStep) {
  // Constraint damping acts through a row's compliance only, and the chain's rows are rigid: the step is
  // undamped and the chain tears at once (a 0.6 m gap after step 1), with a warning at the start.
  nlohmann::json s = load(fs::path(AFFIX_SOURCE_DIR) / "examples/compliant/mass_ratio_chain.json");
  s["settings"]["compliant"]["stabilization"] = "constraint_damping";
  const test::CommandResult r = run(write_scene(s));
  expect_torn(r, 1, "joint1");
  EXPECT_NE(r.err.find("warning: " + (dir_ / "scene.json").string() + ": settings.compliant.stabilization"),
            std::string::npos)
      << r.err;
}

TEST_F(CompliantDivergenceTest, MassRatiosBeyondAMillionToOneAreReported) {
  // 10¹²:1 on hinges and a 10⁻¹² kg link under a 10⁶ kg block, at the default inertial damping.
  expect_torn(run(write_scene(two_links("hinge", 1e-3, 1e12, {0.1, 0, 0}, {0.4, 0, 0}, {0.2, 0, 0}))), 3, "joint0");
  expect_torn(run(write_scene(two_links("ball", 1e-12, 1e6, {0, 0, -0.1}, {0, 0, -0.4}, {0, 0, -0.2}))), 2, "joint1");
}

TEST_F(CompliantDivergenceTest, TheCompliantExamplesRunWithoutTrippingTheCheck) {
  for (const auto& entry : fs::directory_iterator(fs::path(AFFIX_SOURCE_DIR) / "examples/compliant")) {
    if (entry.path().extension() != ".json") continue;
    const test::CommandResult r = run(entry.path(), {"--duration", "2"});
    EXPECT_EQ(r.exit_code, 0) << entry.path() << ": " << r.err;
    EXPECT_EQ(summary()["completed"], true) << entry.path();
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << entry.path() << ": " << r.err;
  }
}

}  // namespace
}  // namespace affix
