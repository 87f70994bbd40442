// `affix import` and direct loading of models by the commands that take a scene: the written scene
// loads and validates, what could not be mapped is one warning line on stderr, and a bad model is one
// error line naming the file, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "affix/scene/scene_loader.hpp"
#include "scene/scene_files.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

using test::run_command;
using test::TempDir;

const std::string kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

TEST(ImportCli, WritesASceneThatValidates) {
  TempDir dir;
  const auto out = dir.path() / "humanoid.json";
  const auto r = run_command({AFFIX_EXECUTABLE, "import", kHumanoid, "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("affix: warning: " + kHumanoid + ": not imported (no affix equivalent): ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("21 actuators"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("humanoid.json: 25 bodies"), std::string::npos) << r.out;
  const Scene scene = load_scene(out);
  EXPECT_EQ(scene.bodies.size(), 25u);  // 16 bodies and 9 virtual links
  const auto v = run_command({AFFIX_EXECUTABLE, "validate", out.string()});
  EXPECT_EQ(v.exit_code, 0) << v.err;
}

TEST(ImportCli, CommandsTakeTheModelDirectly) {
  const auto v = run_command({AFFIX_EXECUTABLE, "validate", kHumanoid});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out, kHumanoid + ": ok (25 bodies, 24 joints)\n");
  EXPECT_EQ(lines(v.err), 1u) << v.err;  // the one warning
  const auto i = run_command({AFFIX_EXECUTABLE, "info", kHumanoid});
  EXPECT_EQ(i.exit_code, 0) << i.err;
  EXPECT_NE(i.out.find("right_thigh"), std::string::npos);
}

TEST(ImportCli, BadModelIsOneErrorLine) {
  TempDir dir;
  const auto bad = dir.write("bad.urdf", "<robot name='r'><link name='a'></robot>");
  const auto r = run_command({AFFIX_EXECUTABLE, "import", bad.string(), "--out", (dir.path() / "x.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("affix: error: " + bad.string() + ": cannot import the model (MuJoCo: ", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "x.json"));
  const auto missing = run_command({AFFIX_EXECUTABLE, "import", kHumanoid});
  EXPECT_EQ(missing.exit_code, 2);  // --out is required
  const auto help = run_command({AFFIX_EXECUTABLE, "import", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("virtual"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace affix
