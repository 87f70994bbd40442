// The `affix` command as a user meets it (DESIGN §4): exit status 0/1/2, bad input reported in one
// line naming the file and the JSON path, and the run output files with the contract's headers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/files.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;

const char* const kTrajectoryHeader = "frame,time,body,x,y,z,a00,a01,a02,a10,a11,a12,a20,a21,a22";
const char* const kStatsContractColumns =
    "step,time,iterations,residual,min_distance,active_contacts,max_joint_error,kinetic_energy,"
    "potential_energy,wall_ms";

/// One 10 cm box at z = 1, no ground: it falls freely for 0.05 s in five steps of 0.01 s.
nlohmann::json falling_box() {
  return nlohmann::json::parse(R"({
    "version": 1,
    "settings": { "dt": 0.01, "duration": 0.05 },
    "bodies": [ { "name": "box", "shape": { "box": [0.1, 0.1, 0.1] }, "position": [0, 0, 1] } ]
  })");
}

/// A unit cube as OBJ; `faces` of its 12 triangles (fewer leaves it open).
std::string cube_obj(int faces) {
  std::string obj =
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n";
  const char* const triangles[] = {"1 3 2", "1 4 3", "5 6 7", "5 7 8", "1 2 6", "1 6 5",
                                   "2 3 7", "2 7 6", "3 4 8", "3 8 7", "4 1 5", "4 5 8"};
  for (int f = 0; f < faces; ++f) obj += std::string("f ") + triangles[f] + "\n";
  return obj;
}

using test::read_lines;

class CliTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("affix_cli_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes `text` to dir_/name and returns the path.
  fs::path write_file(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  fs::path write_scene(const nlohmann::json& scene, const std::string& name = "scene.json") const {
    return write_file(name, scene.dump(2));
  }

  static CommandResult affix(std::vector<std::string> args, const fs::path& cwd = {}) {
    args.insert(args.begin(), AFFIX_EXECUTABLE);
    return test::run_command(args, cwd);
  }

  /// Bad input: status 2, nothing on stdout, one line on stderr naming the file and each of `needles`.
  static void expect_input_error(const CommandResult& r, const fs::path& file,
                                 const std::vector<std::string>& needles) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("affix: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(file.filename().string()), std::string::npos) << "file not named: " << r.err;
    for (const std::string& needle : needles) {
      EXPECT_NE(r.err.find(needle), std::string::npos) << "'" << needle << "' not in: " << r.err;
    }
  }

  fs::path dir_;
};

// ---------------------------------------------------------------- usage

TEST_F(CliTest, HelpExitsZero) {
  const CommandResult r = affix({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("run"), std::string::npos);
  EXPECT_NE(r.out.find("validate"), std::string::npos);
}

TEST_F(CliTest, VersionExitsZero) {
  const CommandResult r = affix({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("affix "), std::string::npos) << r.out;
}

TEST_F(CliTest, BadOptionIsAUsageError) {
  EXPECT_EQ(affix({"run", write_scene(falling_box()).string(), "--bogus"}).exit_code, 2);
  EXPECT_EQ(affix({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(affix({}).exit_code, 2);  // a subcommand is required
  EXPECT_EQ(affix({"run", write_scene(falling_box()).string(), "--dt", "fast"}).exit_code, 2);
}

// ---------------------------------------------------------------- bad input

TEST_F(CliTest, MissingFile) {
  const fs::path file = dir_ / "nowhere.json";
  expect_input_error(affix({"validate", file.string()}), file, {});
  expect_input_error(affix({"run", "--quiet", file.string()}), file, {});
}

TEST_F(CliTest, BadJson) {
  const fs::path file = write_file("broken.json", "{ \"version\": 1, \"bodies\": [ }");
  expect_input_error(affix({"validate", file.string()}), file, {});
}

TEST_F(CliTest, UnknownField) {
  nlohmann::json scene = falling_box();
  scene["bodies"][0]["colour"] = "red";
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"bodies[0].colour"});
}

TEST_F(CliTest, WrongType) {
  nlohmann::json scene = falling_box();
  scene["bodies"][0]["density"] = "heavy";
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"bodies[0].density"});
}

TEST_F(CliTest, UnknownBody) {
  nlohmann::json scene = falling_box();
  scene["joints"] = nlohmann::json::parse(
      R"([{ "name": "j0", "type": "ball", "body1": "ghost", "body2": "world", "anchor": [0, 0, 1] }])");
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"joints[0].body1", "ghost"});
}

TEST_F(CliTest, NonPositiveMass) {
  nlohmann::json scene = falling_box();
  scene["bodies"][0]["mass"] = 0;
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"bodies[0].mass"});
}

TEST_F(CliTest, ZeroRotationAxis) {
  nlohmann::json scene = falling_box();
  scene["bodies"][0]["rotation"] = {{"axis", {0, 0, 0}}, {"angle_deg", 30}};
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"bodies[0].rotation"});
}

TEST_F(CliTest, OpenMesh) {
  write_file("open.obj", cube_obj(11));
  nlohmann::json scene = falling_box();
  scene["bodies"][0]["shape"] = {{"mesh", {{"file", "open.obj"}}}};
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"bodies[0].shape.mesh.file"});
}

TEST_F(CliTest, BodyStartingBelowTheGround) {
  nlohmann::json scene = falling_box();
  scene["ground"] = {{"height", 0.0}};
  scene["bodies"][0]["name"] = "sunk";
  scene["bodies"][0]["position"] = {0, 0, 0.01};  // the 10 cm box reaches down to z = -0.04
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"validate", file.string()}), file, {"sunk"});
  expect_input_error(affix({"run", "--quiet", file.string()}), file, {"sunk"});
}

// ---------------------------------------------------------------- validate, info

TEST_F(CliTest, ValidateReportsCounts) {
  write_file("closed.obj", cube_obj(12));
  nlohmann::json scene = falling_box();
  scene["bodies"][0]["shape"] = {{"mesh", {{"file", "closed.obj"}, {"scale", 0.1}}}};
  const fs::path file = write_scene(scene);
  const CommandResult r = affix({"validate", file.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file.string() + ": ok (1 body, 0 joints)\n");
}

TEST_F(CliTest, InfoPrintsSettingsAndBodies) {
  const fs::path file = write_scene(falling_box());
  const CommandResult r = affix({"info", file.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle : {"dt", "0.01", "ipc", "body box", "8 vertices, 12 triangles", "mass", "principal",
                             "blas           OpenBLAS"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << " not in:\n" << r.out;
  }
  expect_input_error(affix({"info", (dir_ / "nowhere.json").string()}), dir_ / "nowhere.json", {});
}

TEST_F(CliTest, MabdRefusesAJointStiffnessItWouldIgnore) {
  // A soft distance joint (10 N/m) ran rigid on mabd without a word (hostile pass D12): mabd's joints
  // are exact KKT rows, so a penalty stiffness is refused, naming its JSON path.
  nlohmann::json scene = falling_box();
  scene["settings"]["solver"] = "mabd";
  scene["joints"] = nlohmann::json::parse(
      R"([{ "name": "rope", "type": "distance", "body1": "box", "body2": "world", "anchor1": [0, 0, 0],
            "anchor2": [0, 0, 2] }])");
  const fs::path out = dir_ / "out";
  ASSERT_EQ(affix({"run", write_scene(scene).string(), "--out", out.string(), "--quiet"}).exit_code, 0)
      << "without stiffness it runs";
  scene["joints"][0]["stiffness"] = 10.0;
  const fs::path file = write_scene(scene);
  expect_input_error(affix({"run", file.string(), "--out", out.string(), "--quiet"}), file,
                     {"joints[0].stiffness: the mabd solver enforces every joint exactly"});
}

TEST_F(CliTest, InfoPrintsEverySolversSettingsWithTheGivenOnesAndTheDefaults) {
  nlohmann::json scene = falling_box();
  scene["settings"]["mabd"] = {{"dual_solver", "gauss_seidel"}, {"iterations", 3}};
  scene["settings"]["compliant"] = {{"compliance", 1e-9}};
  const fs::path file = write_scene(scene);
  const CommandResult r = affix({"info", file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle :
       {"\nmabd           youngs_modulus 8 x each body's stiffness, poisson_ratio 0.3, iterations 3, ",
        "dual_solver gauss_seidel, ", "body_contact false\n", "\ncompliant      stabilization inertial_damping, ",
        "compliance 1e-09, ", "\nimpulse        position_tolerance 1e-06 m, max_iterations 50, "}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << " not in:\n" << r.out;
  }
  scene["settings"]["mabd"] = {{"iterations", 0}};  // read, so checked, whatever the scene's solver
  const CommandResult bad = affix({"info", write_scene(scene).string()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("settings.mabd.iterations"), std::string::npos) << bad.err;
}

// ---------------------------------------------------------------- run

TEST_F(CliTest, RunWritesTheThreeFiles) {
  const fs::path file = write_scene(falling_box());
  const fs::path out = dir_ / "result";
  const CommandResult r = affix({"run", file.string(), "--out", out.string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(out.string()), std::string::npos) << "where the output went:\n" << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;  // --quiet

  const auto trajectory = read_lines(out / "trajectory.csv");
  ASSERT_FALSE(trajectory.empty());
  EXPECT_EQ(trajectory[0], kTrajectoryHeader);
  EXPECT_EQ(trajectory.size(), 1u + 6u);  // frames 0..5 of one body
  EXPECT_EQ(trajectory[1].rfind("0,0,box,", 0), 0u) << trajectory[1];

  const auto stats = read_lines(out / "stats.csv");
  ASSERT_FALSE(stats.empty());
  EXPECT_EQ(stats[0].rfind(kStatsContractColumns, 0), 0u) << stats[0];
  EXPECT_EQ(stats.size(), 1u + 5u);

  std::ifstream summary_file(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  for (const char* key : {"scene", "solver", "steps", "wall_s", "median_ms", "max_ms", "max_joint_error",
                          "min_distance", "completed", "error"}) {
    EXPECT_TRUE(summary.contains(key)) << key;
  }
  EXPECT_EQ(summary["scene"], "scene");
  EXPECT_EQ(summary["solver"], "ipc");
  EXPECT_EQ(summary["steps"], 5);
  EXPECT_EQ(summary["completed"], true);
}

TEST_F(CliTest, FormatHdf5WritesTrajectoryH5InsteadOfTheCsvAndViewReadsIt) {
  const fs::path file = write_scene(falling_box());
  const fs::path out = dir_ / "result";
  const CommandResult r = affix({"run", file.string(), "--out", out.string(), "--quiet", "--format", "hdf5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("trajectory.h5, stats.csv, summary.json"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(out / "trajectory.h5"));
  EXPECT_FALSE(fs::exists(out / "trajectory.csv"));
  const CommandResult view = affix({"view", out.string()});
  EXPECT_EQ(view.exit_code, 0) << view.err;
  EXPECT_NE(view.out.find("1 body, 6 of 6 frames"), std::string::npos) << view.out;
  // A CSV run into the same directory replaces the earlier run's trajectory.h5.
  ASSERT_EQ(affix({"run", file.string(), "--out", out.string(), "--quiet", "--format", "csv"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(out / "trajectory.csv"));
  EXPECT_FALSE(fs::exists(out / "trajectory.h5"));
}

TEST_F(CliTest, ABadFormatIsAUsageErrorAndWritesNothing) {
  const fs::path file = write_scene(falling_box());
  const fs::path out = dir_ / "result";
  for (const char* bad : {"xml", "", "HDF5"}) {
    const CommandResult r = affix({"run", file.string(), "--out", out.string(), "--format", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_EQ(r.err, "affix: error: --format " + std::string(bad) + ": expected csv or hdf5\n");
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliTest, RunDefaultsToOutSceneNameInTheCurrentDirectory) {
  const fs::path file = write_scene(falling_box(), "drop.json");
  const CommandResult r = affix({"run", "--quiet", file.string()}, dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "drop" / "summary.json"));
}

TEST_F(CliTest, DurationAndDtOverridesSetTheNumberOfSteps) {
  const fs::path file = write_scene(falling_box());
  const fs::path out = dir_ / "result";
  ASSERT_EQ(affix({"run", "--quiet", file.string(), "--out", out.string(), "--duration", "0.1"}).exit_code, 0);
  EXPECT_EQ(read_lines(out / "stats.csv").size(), 1u + 10u);
  ASSERT_EQ(affix({"run", "--quiet", file.string(), "--out", out.string(), "--dt", "0.02"}).exit_code, 0);
  EXPECT_EQ(read_lines(out / "stats.csv").size(), 1u + 3u);  // ceil(0.05 / 0.02)
  EXPECT_EQ(read_lines(out / "trajectory.csv").size(), 1u + 4u);
}

TEST_F(CliTest, OverridesAreValidatedAndNamed) {
  nlohmann::json scene = falling_box();
  scene["settings"]["output_fps"] = 100;
  const fs::path file = write_scene(scene);
  const fs::path out = dir_ / "result";
  const auto run_with = [&](const std::string& option, const std::string& value) {
    return affix({"run", "--quiet", file.string(), "--out", out.string(), option, value});
  };
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
           {"--dt", "-1"}, {"--duration", "0"}, {"--solver", "nosuch"}}) {
    const CommandResult r = run_with(option, value);
    EXPECT_EQ(r.exit_code, 2) << option << " " << value;
    EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_FALSE(fs::exists(out)) << "nothing is written for bad input";
}

TEST_F(CliTest, ADtTooLargeForTheFilesOutputFpsLowersItToEveryStepWithANote) {
  // The file's 100 frames per second were for its dt = 0.01; --dt 0.02 allows 50, and every step is
  // written: frames at t = 0, 0.02, 0.04 and the last step's 0.06 (duration 0.05 is not a multiple of dt).
  nlohmann::json scene = falling_box();
  scene["settings"]["output_fps"] = 100;
  const fs::path file = write_scene(scene);
  const fs::path out = dir_ / "result";
  const CommandResult r = affix({"run", "--quiet", file.string(), "--out", out.string(), "--dt", "0.02"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "affix: note: --dt 0.02: settings.output_fps 100 exceeds 1/dt = 50; every step is written, 50 "
                   "frames per second\n");
  EXPECT_EQ(read_lines(out / "stats.csv").size(), 1u + 3u);
  EXPECT_EQ(read_lines(out / "trajectory.csv").size(), 1u + 4u);
}

}  // namespace
}  // namespace affix
