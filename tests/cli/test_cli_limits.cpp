// Inputs beyond affix's limits through the real command (issue 9): each of `validate`, `info` and
// `run` exits 2 with one short line naming the file or option and what was expected — where they
// used to crash, print a wrapped-around step count, or fail only mid-run with exit 1.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;

class CliLimits : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_cli_limits_" + std::string(info->name()) + "_" +
                                        std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& text, const std::string& name = "scene.json") const {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }

  static CommandResult affix(std::vector<std::string> args) {
    args.insert(args.begin(), AFFIX_EXECUTABLE);
    return test::run_command(args);
  }

  /// Exit 2, nothing on stdout, one short line on stderr containing each of `needles`.
  static void expect_input_error(const CommandResult& r, const std::vector<std::string>& needles) {
    EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 500);
    EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 500);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 500u) << r.err.substr(0, 500);
    EXPECT_EQ(r.err.rfind("affix: error: ", 0), 0u) << r.err.substr(0, 500);
    EXPECT_EQ(r.err.find("std::"), std::string::npos) << r.err.substr(0, 500);
    for (const std::string& needle : needles) {
      EXPECT_NE(r.err.find(needle), std::string::npos) << "'" << needle << "' not in: " << r.err.substr(0, 500);
    }
  }

  /// `validate`, `info` and `run` on `file` each end in the same kind of input error.
  void expect_refused_by_every_command(const fs::path& file, const std::vector<std::string>& needles) const {
    for (const char* command : {"validate", "info"}) {
      SCOPED_TRACE(command);
      expect_input_error(affix({command, file.string()}), needles);
    }
    SCOPED_TRACE("run");
    expect_input_error(affix({"run", "--quiet", file.string(), "--out", (dir_ / "out").string()}), needles);
  }

  fs::path dir_;
};

const char* const kBox = R"({ "name": "box", "shape": { "box": [0.1, 0.1, 0.1] }, "position": [0, 0, 1] })";

std::string scene(const std::string& settings, const std::string& body = kBox) {
  return R"({ "version": 1, "settings": )" + settings + R"(, "bodies": [ )" + body + " ] }";
}

TEST_F(CliLimits, DeepNesting) {
  const std::string deep = std::string(70000, '[') + std::string(70000, ']');
  expect_refused_by_every_command(write(R"({"version":1,"bodies":)" + deep + "}"),
                                  {"invalid JSON at line 1, column ", "nested more than 256 levels"});
  expect_refused_by_every_command(write(scene("{}").substr(0, scene("{}").size() - 1) + ", \"x\": " + deep + "}"),
                                  {"nested more than 256 levels"});
}

TEST_F(CliLimits, StepCountInTheFile) {
  expect_refused_by_every_command(write(scene(R"({ "dt": 1e-3, "duration": 3e6 })")),
                                  {"settings.duration", "at most 1000000000 steps"});
}

TEST_F(CliLimits, StepCountFromTheOverrides) {
  const fs::path file = write(scene(R"({ "dt": 0.01, "duration": 0.05 })"));
  const std::string out = (dir_ / "out").string();
  expect_input_error(affix({"run", "--quiet", file.string(), "--out", out, "--duration", "1e12"}),
                     {"--duration 1e+12", "at most 1000000000 steps"});
  expect_input_error(affix({"run", "--quiet", file.string(), "--out", out, "--dt", "1e-12"}),
                     {"--dt 1e-12", "at most 1000000000 steps"});
  const fs::path with_fps = write(scene(R"({ "dt": 0.01, "duration": 0.05, "output_fps": 100 })"), "fps.json");
  expect_input_error(affix({"run", "--quiet", with_fps.string(), "--out", out, "--duration", "1e7"}),
                     {"--duration 1e+07", "output frames", "output_fps"});
  EXPECT_FALSE(fs::exists(dir_ / "out")) << "nothing is written for bad input";
}

TEST_F(CliLimits, Resolution) {
  expect_refused_by_every_command(
      write(scene("{}", R"({ "name": "ball", "shape": { "sphere": 1, "resolution": 10000 } })")),
      {"bodies[0].shape.resolution", "to 1000"});
}

TEST_F(CliLimits, DerivedMass) {
  // Both passed validate and failed only in the run, with exit 1.
  expect_refused_by_every_command(
      write(scene("{}", R"({ "name": "ball", "shape": { "sphere": 1 }, "mass": 1e308 })")),
      {"bodies[0].mass", "weight"});
  expect_refused_by_every_command(
      write(scene("{}", R"({ "name": "ball", "shape": { "sphere": 1 }, "density": 5e-324 })")),
      {"bodies[0].density", "positive mass"});
}

TEST_F(CliLimits, ObjNonNumbers) {
  std::ofstream(dir_ / "m.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv inf 1 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  expect_refused_by_every_command(
      write(scene("{}", R"({ "name": "m", "shape": { "mesh": { "file": "m.obj" } }, "position": [0, 0, 2] })")),
      {"bodies[0].shape.mesh.file", "m.obj line 4", "'inf'"});
}

TEST_F(CliLimits, LongKeyIsCut) {
  const fs::path file = write(R"({ "version": 1, ")" + std::string(10'000'000, 'k') + R"(": 1, "bodies": [ )" +
                              kBox + " ] }");
  expect_input_error(affix({"validate", file.string()}), {"(10000000 bytes): unknown field"});
}

// A scene path that is not a regular file used to be read forever (/dev/zero: 4 GB and counting) or to
// block (a FIFO with no writer); each is refused before reading.
TEST_F(CliLimits, SceneThatIsNotARegularFile) {
  expect_refused_by_every_command("/dev/zero", {"/dev/zero: cannot read file (not a regular file)"});
  const fs::path fifo = dir_ / "fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused_by_every_command(fifo, {"fifo.json: cannot read file (not a regular file)"});
}

TEST_F(CliLimits, SceneFileAboveOneGiB) {
  const fs::path file = write("{");
  fs::resize_file(file, (std::uintmax_t{1} << 30) + 1);  // sparse, and never read
  expect_refused_by_every_command(file, {"at most 1 GiB, got 1073741825 bytes"});
}

// A number in a message is printed shortest, never as the 309 digits of std::to_string(1e308).
TEST_F(CliLimits, HugeNumbersInMessagesStayShort) {
  // The ground check belongs to the solver's set-up, which validate and run do and info does not.
  const fs::path high_ground = write(R"({ "version": 1, "ground": { "height": 1e308 }, "bodies": [ )" +
                                     std::string(kBox) + " ] }", "high_ground.json");
  const fs::path deep_body = write(R"({ "version": 1, "ground": {}, "bodies": [ { "name": "box",
      "shape": { "box": [1, 1, 1] }, "position": [0, 0, -1e308] } ] })", "deep_body.json");
  const std::string out = (dir_ / "out").string();
  for (const auto& [file, needle] : {std::pair{high_ground, std::string("z = 1e+308)")},
                                     std::pair{deep_body, std::string("1e+308 m below z = 0)")}}) {
    expect_input_error(affix({"validate", file.string()}), {"bodies[0].position", needle});
    expect_input_error(affix({"run", "--quiet", file.string(), "--out", out}), {"bodies[0].position", needle});
  }
  expect_refused_by_every_command(write(scene(R"({ "dt": 1e-308, "duration": 1e308 })")),
                                  {"settings.duration", "= inf steps"});
}

}  // namespace
}  // namespace affix
