// `affix run` stops a compliant run whose mechanical energy rose above its energy line
// (solvers/compliant/energy_line_check.hpp): ten 0.2 kg capsule links on ball joints under a 15 t cube,
// released 20° off the vertical, under "geometric_stiffness" at h = 0.05 (compliant13's JSON scene: its
// links' rest axes tilted +20° about y, 40° across the chain) peaked 7.6·10⁶ J above its start and
// completed with exit 0; it now ends with exit 1, summary.json not completed, and a message with the
// step, its time, the energy, the line and the excess. The same chain at the default stabilization, and
// the Fig. 8 cable and the crane at h = 0.1, complete.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

/// The chain, 20 s at `dt`, with settings.compliant.stabilization `stabilization` (none: the default).
nlohmann::json heavy_chain(double dt, const char* stabilization) {
  const double tilt = 20.0 * std::numbers::pi / 180.0, link = 0.5;
  const auto at = [&](double s) { return nlohmann::json::array({s * std::sin(tilt), 0.0, -s * std::cos(tilt)}); };
  nlohmann::json scene = {{"version", 1}, {"settings", {{"dt", dt}, {"duration", 20.0}, {"solver", "compliant"}}}};
  if (stabilization) scene["settings"]["compliant"] = {{"stabilization", stabilization}};
  const nlohmann::json rotation = {{"axis", {0, 1, 0}}, {"angle_deg", 20}};
  for (int k = 0; k < 10; ++k)
    scene["bodies"].push_back({{"name", "link" + std::to_string(k)},
                               {"shape", {{"capsule", {{"radius", 0.03}, {"length", 0.38}}}}},
                               {"mass", 0.2},
                               {"position", at((k + 0.5) * link)},
                               {"rotation", rotation}});
  scene["bodies"].push_back({{"name", "load"}, {"shape", {{"box", {1.0, 1.0, 1.0}}}}, {"mass", 15000.0},
                             {"position", at(10 * link + 0.5)}, {"rotation", rotation}});
  for (int k = 0; k <= 10; ++k)
    scene["joints"].push_back({{"name", "joint" + std::to_string(k)},
                               {"type", "ball"},
                               {"body1", k < 10 ? "link" + std::to_string(k) : "load"},
                               {"body2", k == 0 ? "world" : "link" + std::to_string(k - 1)},
                               {"anchor", at(k * link)}});
  return scene;
}

class EnergyLineRun : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("affix_energy_line_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  test::CommandResult run(const fs::path& scene, std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {AFFIX_EXECUTABLE, "run", scene.string(), "--out", (dir_ / "out").string(), "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_command(args);
  }
  fs::path write(const nlohmann::json& scene) const {
    std::ofstream(dir_ / "scene.json") << scene.dump(2);
    return dir_ / "scene.json";
  }

  fs::path dir_;
};

TEST_F(EnergyLineRun, AChainThatGainsEnergyUnderGeometricStiffnessIsADivergenceNamingTheStepAndTheExcess) {
  const test::CommandResult r = run(write(heavy_chain(0.05, "geometric_stiffness")));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("): the mechanical energy rose above its energy line: E + ½hm g·v = "), std::string::npos)
      << r.err;
  for (const char* part :
       {" J against a line of ", ", an excess of ", ", past the limit of ", "the simulation diverged"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
  const nlohmann::json summary = read_json(dir_ / "out" / "summary.json");
  EXPECT_EQ(summary["completed"], false);
  EXPECT_LT(summary["steps"].get<int>(), 400);
  const std::string error = summary["error"];
  // summary.json counts the steps completed; the one that made the energy is the next.
  EXPECT_EQ(error.rfind("step " + std::to_string(summary["steps"].get<int>() + 1) + " (t = ", 0), 0u) << error;
  // The excess as printed: far past the limit (the gain is megajoules; the limit is the kinetic energy the
  // line allows plus the bodies' weights times their sizes, about 10⁵ J here).
  const std::size_t at = error.find(", an excess of ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_GT(std::stod(error.substr(at + 15)), 1e6) << error;
}

TEST_F(EnergyLineRun, TheSameChainAtTheDefaultStabilizationCompletes) {
  const test::CommandResult r = run(write(heavy_chain(0.05, nullptr)));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir_ / "out" / "summary.json")["completed"], true);
}

TEST_F(EnergyLineRun, TheCableLoadAndTheCraneAtATenthOfASecondComplete) {
  for (const char* name : {"cable_load", "crane"}) {
    const test::CommandResult r = run(fs::path(AFFIX_SOURCE_DIR) / "examples/compliant" / (std::string(name) + ".json"),
                                      {"--dt", "0.1"});
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(read_json(dir_ / "out" / "summary.json")["completed"], true) << name;
  }
}

}  // namespace
}  // namespace affix
