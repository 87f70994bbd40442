// The run loop (io/run.hpp) against a fake back-end whose state is known in closed form: frames pick
// the right steps, every step has a stats row, joints.csv and contacts.csv share trajectory.csv's
// frames, and a failing run keeps what it wrote.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/io/interrupt.hpp"
#include "affix/io/run.hpp"
#include "affix/io/trajectory_h5_reader.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

/// Two bodies; after n steps body 0 sits at x = n (so a frame's x tells which step it shows) and
/// body 1 at y = −n. Fails at `fail_at` (by throwing, or with a NaN pose if `nan_instead`).
class FakeSimulator : public Simulator {
 public:
  std::optional<int> fail_at;
  bool nan_instead = false;
  std::optional<int> signal_at;        ///< raises `signal` during this step
  int signal = SIGINT;
  std::optional<int> deform_from;      ///< from this step on, body 1's A is `deformed`
  Mat3 deformed = Mat3::Identity();
  bool capped = false;                 ///< every step reports hitting the iteration cap

  const char* name() const override { return "fake"; }
  StepStats step() override {
    ++steps_;
    if (fail_at && steps_ == *fail_at && !nan_instead) throw SimulationError("energy grew without bound");
    if (signal_at && steps_ == *signal_at) std::raise(signal);
    StepStats stats;
    stats.hit_iteration_cap = capped;
    stats.iterations = steps_ % 3 + 1;
    stats.min_distance = std::numeric_limits<double>::infinity();
    stats.time = 12345.0;  // wrong on purpose: the loop writes n·dt
    return stats;
  }
  double time() const override { return steps_ * 0.01; }
  int step_count() const override { return steps_; }
  std::vector<BodyPose> poses() const override {
    std::vector<BodyPose> poses(2);
    poses[0].p.x() = steps_;
    poses[1].p.y() = -steps_;
    if (fail_at && nan_instead && steps_ >= *fail_at) poses[1].A(2, 2) = std::nan("");
    if (deform_from && steps_ >= *deform_from) poses[1].A = deformed;
    return poses;
  }
  /// Body 0 moves along x at one metre per step, body 1 along −y.
  std::vector<BodyVelocity> velocities() const override {
    std::vector<BodyVelocity> v(2);
    v[0].linear.x() = 100.0, v[1].linear.y() = -100.0;
    return v;
  }
  std::vector<JointRecord> joint_records() const override { return {}; }
  std::vector<ContactRecord> contact_records() const override { return {}; }

 protected:
  int steps() const { return steps_; }

 private:
  int steps_ = 0;
};

/// The fake with records: one joint whose anchors sit at x = n and x = n + 0.5 after n steps, and n
/// contacts of body 0 with the ground at x = n (none at frame 0), so that a row tells its step.
class RecordingSimulator : public FakeSimulator {
 public:
  std::vector<JointRecord> joint_records() const override {
    JointRecord r;
    r.joint = 0;
    r.anchor1 = Vec3(steps(), 0, 0);
    r.anchor2 = Vec3(steps() + 0.5, 0, 0);
    return {r};
  }
  std::vector<ContactRecord> contact_records() const override {
    std::vector<ContactRecord> records(steps());
    for (ContactRecord& r : records) {
      r.body1 = 0;
      r.point = Vec3(steps(), 0, 0);
      r.distance = 1e-4;
      r.force = 9.81;
    }
    return records;
  }
};

Scene two_body_scene(double dt, double duration, std::optional<double> fps) {
  Scene scene;
  scene.name = "fake_scene";
  scene.settings.dt = dt;
  scene.settings.duration = duration;
  scene.settings.output_fps = fps;
  scene.bodies.resize(2);
  scene.bodies[0].name = "left";
  scene.bodies[1].name = "right";
  return scene;
}

std::vector<std::vector<std::string>> read_rows(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
      fields.push_back(line.substr(start, comma - start));
    }
    fields.push_back(line.substr(start));
    rows.push_back(fields);
  }
  return rows;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

class RunLoopTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("affix_run_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    options_.out_dir = dir_ / "nested" / "out";  // parents are created too
    options_.quiet = true;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  RunOptions options_;
};

TEST_F(RunLoopTest, ThirtyFpsAtHundredHertzWritesTheLastStepNotAfterEachFrame) {
  FakeSimulator simulator;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, 30.0), simulator, options_);
  ASSERT_TRUE(result.completed) << result.error;
  EXPECT_EQ(result.steps, 10);

  const auto frames = read_rows(options_.out_dir / "trajectory.csv");
  ASSERT_EQ(frames.size(), 4u * 2u);  // frames at 0, 1/30, 2/30, 3/30 × two bodies
  const int expected_step[] = {0, 3, 6, 10};
  for (int k = 0; k < 4; ++k) {
    const auto& left = frames[2 * k];
    const auto& right = frames[2 * k + 1];
    EXPECT_EQ(left[0], std::to_string(k));
    EXPECT_EQ(left[2], "left");
    EXPECT_EQ(right[2], "right");
    EXPECT_EQ(std::stod(left[3]), expected_step[k]) << "frame " << k;
    EXPECT_EQ(std::strtod(left[1].c_str(), nullptr), expected_step[k] * 0.01) << "time is n·dt";
  }
}

TEST_F(RunLoopTest, EveryStepIsAFrameWithoutOutputFps) {
  FakeSimulator simulator;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  ASSERT_TRUE(result.completed);
  EXPECT_EQ(read_rows(options_.out_dir / "trajectory.csv").size(), 6u * 2u);
}

TEST_F(RunLoopTest, StatsHaveOneRowPerStepWithTheLoopsStepAndTime) {
  FakeSimulator simulator;
  run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  const auto rows = read_rows(options_.out_dir / "stats.csv");
  ASSERT_EQ(rows.size(), 5u);
  for (int n = 1; n <= 5; ++n) {
    EXPECT_EQ(rows[n - 1][0], std::to_string(n));
    EXPECT_EQ(std::strtod(rows[n - 1][1].c_str(), nullptr), n * 0.01);
    EXPECT_EQ(rows[n - 1][4], "inf");
  }
}

TEST_F(RunLoopTest, SummaryDescribesACompletedRun) {
  FakeSimulator simulator;
  run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  const auto summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["scene"], "fake_scene");
  EXPECT_EQ(summary["solver"], "fake");
  EXPECT_EQ(summary["steps"], 5);
  EXPECT_EQ(summary["completed"], true);
  EXPECT_TRUE(summary["error"].is_null());
  EXPECT_TRUE(summary["min_distance"].is_null());  // inf in every step
  EXPECT_EQ(summary["bodies"], 2);
  EXPECT_EQ(summary["simulated_time"].get<double>(), 5 * 0.01);
  EXPECT_EQ(summary["max_iterations"], 3);
  EXPECT_GE(summary["wall_s"].get<double>(), 0.0);
}

TEST_F(RunLoopTest, SimulationErrorStopsTheRunAndKeepsWhatWasWritten) {
  FakeSimulator simulator;
  simulator.fail_at = 4;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.steps, 3);
  EXPECT_EQ(result.error, "step 4 (t = 0.04 s): energy grew without bound");  // the loop names the step
  EXPECT_EQ(read_rows(options_.out_dir / "stats.csv").size(), 3u);
  EXPECT_EQ(read_rows(options_.out_dir / "trajectory.csv").size(), 4u * 2u);  // steps 0..3
  const auto summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["completed"], false);
  EXPECT_EQ(summary["error"], result.error);
  EXPECT_EQ(summary["steps"], 3);
}

TEST_F(RunLoopTest, NonFinitePoseStopsTheRunNamingStepAndBody) {
  FakeSimulator simulator;
  simulator.fail_at = 2;
  simulator.nan_instead = true;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_NE(result.error.find("step 2"), std::string::npos) << result.error;
  EXPECT_NE(result.error.find("'right'"), std::string::npos) << result.error;
  EXPECT_EQ(read_rows(options_.out_dir / "trajectory.csv").size(), 2u * 2u);  // no NaN frame
  for (const auto& row : read_rows(options_.out_dir / "trajectory.csv")) {
    for (const auto& field : row) EXPECT_NE(field, "nan");
  }
}

TEST_F(RunLoopTest, OutputDirectoryThatIsAFileIsAnInputError) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "file") << "x";
  options_.out_dir = dir_ / "file";
  FakeSimulator simulator;
  EXPECT_THROW(run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_), InputError);
}

TEST_F(RunLoopTest, TwoRunsWriteIdenticalTrajectories) {
  const Scene scene = two_body_scene(0.01, 0.2, 30.0);
  FakeSimulator first;
  FakeSimulator second;
  run_simulation(scene, first, options_);
  std::ifstream a(options_.out_dir / "trajectory.csv");
  const std::string text_a((std::istreambuf_iterator<char>(a)), {});
  options_.out_dir = dir_ / "again";
  run_simulation(scene, second, options_);
  std::ifstream b(options_.out_dir / "trajectory.csv");
  const std::string text_b((std::istreambuf_iterator<char>(b)), {});
  EXPECT_EQ(text_a, text_b);
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

TEST_F(RunLoopTest, AnEarlierRunsFilesAreRemovedBeforeAnythingIsWritten) {
  // A completed summary of another scene, and files this run will not write, sit in the directory.
  fs::create_directories(options_.out_dir);
  for (const char* name : {"summary.json", "joints.csv", "contacts.csv", "view.html", "meshes.json", "trajectory.h5"})
    std::ofstream(options_.out_dir / name) << R"({"scene": "other", "completed": true})";
  std::ofstream(options_.out_dir / "notes.txt") << "mine";
  FakeSimulator simulator;
  simulator.fail_at = 2;
  run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  const auto summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["scene"], "fake_scene");
  EXPECT_EQ(summary["completed"], false);
  for (const char* name : {"joints.csv", "contacts.csv", "view.html", "meshes.json", "trajectory.h5"})
    EXPECT_FALSE(fs::exists(options_.out_dir / name)) << name;
  EXPECT_EQ(slurp(options_.out_dir / "notes.txt"), "mine");  // not a file of the output contract
}

TEST_F(RunLoopTest, AnEmptyOutputDirectoryIsAnInputErrorAndNothingIsWritten) {
  fs::create_directories(dir_);
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  options_.out_dir = "";
  FakeSimulator simulator;
  bool wrote_extra = false;
  EXPECT_THROW(run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_,
                              [&](const fs::path&) { wrote_extra = true; }),
               InputError);
  fs::current_path(cwd);
  EXPECT_FALSE(wrote_extra);
  EXPECT_TRUE(fs::is_empty(dir_));
  EXPECT_EQ(simulator.step_count(), 0);
}

/// two_body_scene with a ball joint from `left` to the world. The bodies are 6 m boxes, so that the
/// recording fake's 0.5 m gap is well inside the tear limit (joint_tear.hpp: a tenth of the scene's size,
/// the diagonal of the cube of side 2r around them, r = 3√3 m their bounding radius: 18 m).
Scene jointed_scene(double dt, double duration, std::optional<double> fps) {
  Scene scene = two_body_scene(dt, duration, fps);
  for (BodyDef& body : scene.bodies) body.shape = BoxShape{Vec3::Constant(6.0)};
  JointDef j;
  j.name = "pin";
  j.body1 = "left";
  j.body2 = "world";
  j.body1_index = 0;
  scene.joints.push_back(j);
  return scene;
}

/// (frame, time) of every row of a run output CSV, in file order.
std::vector<std::pair<std::string, std::string>> frame_times(const fs::path& file) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& row : read_rows(file)) out.emplace_back(row[0], row[1]);
  return out;
}

TEST_F(RunLoopTest, AJointedRunWritesJointsCsvOnTrajectorysFrames) {
  RecordingSimulator simulator;
  const RunResult result = run_simulation(jointed_scene(0.01, 0.1, 30.0), simulator, options_);
  ASSERT_TRUE(result.completed) << result.error;
  const auto rows = read_rows(options_.out_dir / "joints.csv");
  ASSERT_EQ(rows.size(), 4u);  // one joint × frames at 0, 1/30, 2/30, 3/30
  auto trajectory = frame_times(options_.out_dir / "trajectory.csv");
  std::erase_if(trajectory, [k = 0](const auto&) mutable { return k++ % 2 == 1; });  // one row per frame
  EXPECT_EQ(frame_times(options_.out_dir / "joints.csv"), trajectory);
  const int expected_step[] = {0, 3, 6, 10};
  for (int k = 0; k < 4; ++k) {
    ASSERT_EQ(rows[k].size(), 18u);
    EXPECT_EQ(rows[k][2], "pin");
    EXPECT_EQ(rows[k][3], "left");
    EXPECT_EQ(rows[k][4], "world");
    EXPECT_EQ(std::stod(rows[k][5]), expected_step[k]) << "frame " << k << " shows the step trajectory.csv does";
    EXPECT_EQ(std::stod(rows[k][17]), 0.5) << "error: the gap between the anchors";
  }
  EXPECT_FALSE(fs::exists(options_.out_dir / "contacts.csv")) << "not asked for";
}

// `affix run` drops the scene once compiled and runs from RunInputs: what it takes out of the scene
// (names, joints, settings) must give the very files a run from the scene itself writes.
TEST_F(RunLoopTest, ARunFromInputsTakenOutOfTheSceneWritesWhatARunFromTheSceneWrites) {
  RecordingSimulator from_scene;
  ASSERT_TRUE(run_simulation(jointed_scene(0.01, 0.1, 30.0), from_scene, options_).completed);
  const auto joints = read_rows(options_.out_dir / "joints.csv");
  const auto trajectory = read_rows(options_.out_dir / "trajectory.csv");

  Scene scene = jointed_scene(0.01, 0.1, 30.0);
  RunInputs inputs = RunInputs::take(scene);
  EXPECT_EQ(inputs.body_names, (std::vector<std::string>{"left", "right"}));
  ASSERT_EQ(inputs.joints.size(), 1u);
  EXPECT_EQ(inputs.joints.prefix(0), "pin,left,world");
  EXPECT_TRUE(scene.joints.empty()) << "summarised and dropped, not kept to the end of the run";
  ASSERT_FALSE(inputs.inputs.empty());
  EXPECT_EQ(inputs.inputs[0], scene.file) << "the scene file stays protected from the run's output";
  RecordingSimulator from_inputs;
  const RunResult result = run_simulation(std::move(inputs), from_inputs, options_);
  ASSERT_TRUE(result.completed) << result.error;
  EXPECT_EQ(result.bodies, 2);
  EXPECT_EQ(read_rows(options_.out_dir / "joints.csv"), joints);
  EXPECT_EQ(read_rows(options_.out_dir / "trajectory.csv"), trajectory);
}

TEST_F(RunLoopTest, ARunWithoutJointsWritesNoJointsCsv) {
  RecordingSimulator simulator;
  ASSERT_TRUE(run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_).completed);
  EXPECT_FALSE(fs::exists(options_.out_dir / "joints.csv"));
  EXPECT_FALSE(fs::exists(options_.out_dir / "contacts.csv"));
}

TEST_F(RunLoopTest, ContactsAskedForAreWrittenOnTrajectorysFrames) {
  RecordingSimulator simulator;
  options_.contacts = true;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, 30.0), simulator, options_);
  ASSERT_TRUE(result.completed) << result.error;
  const auto rows = read_rows(options_.out_dir / "contacts.csv");
  // Frames at steps 0, 3, 6, 10 hold 0, 3, 6 and 10 contacts.
  ASSERT_EQ(rows.size(), 19u);
  const auto trajectory = read_rows(options_.out_dir / "trajectory.csv");
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 12u);
    const int frame = std::stoi(row[0]);
    ASSERT_TRUE(frame >= 1 && frame <= 3) << "frame 0 has no contacts";
    EXPECT_EQ(row[1], trajectory[2 * frame][1]) << "the same time as trajectory.csv's frame";
    EXPECT_EQ(row[4], trajectory[2 * frame][3]) << "the same state as trajectory.csv's frame";
    EXPECT_EQ(row[2], "left");
    EXPECT_EQ(row[3], "ground");
    EXPECT_EQ(row[9], "1");  // nz
  }
  EXPECT_FALSE(fs::exists(options_.out_dir / "joints.csv"));
}

TEST_F(RunLoopTest, AFailedRunKeepsTheRecordsOfEveryFrameWritten) {
  RecordingSimulator simulator;
  simulator.fail_at = 4;
  options_.contacts = true;
  const RunResult result = run_simulation(jointed_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(read_rows(options_.out_dir / "joints.csv").size(), 4u);          // frames 0..3
  EXPECT_EQ(read_rows(options_.out_dir / "contacts.csv").size(), 0u + 1 + 2 + 3);
}

/// The recording fake whose joint comes apart: its anchors `rate` metres further apart after every step.
class TearingSimulator : public FakeSimulator {
 public:
  double rate = 0.1;
  std::vector<JointRecord> joint_records() const override {
    JointRecord r;
    r.joint = 0;
    r.anchor2 = Vec3(rate * steps(), 0, 0);
    return {r};
  }
};

TEST_F(RunLoopTest, AJointComingApartStopsTheRunAtTheFirstFramePastItsLimitNamingItAndKeepsThatFrame) {
  // Two 1 m boxes at the origin, bounding radius r = √3/2: the scene's size L = 2r√3 = 3 m, a rigid joint's
  // limit L/10 = 0.3 m; the gap 0.25 n passes it at step 2. Frames at every step: frames 0, 1, 2 are
  // written, step 2's included.
  Scene scene = jointed_scene(0.01, 0.1, std::nullopt);
  for (BodyDef& body : scene.bodies) body.shape = BoxShape{Vec3::Ones()};
  TearingSimulator simulator;
  simulator.rate = 0.25;
  const RunResult result = run_simulation(scene, simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.steps, 2);
  EXPECT_EQ(result.error, "step 2 (t = 0.02 s): joint 'pin' (between 'left' and 'world') came apart: a gap of 0.5 m, "
                          "past its limit of 0.3 m (a tenth of the scene's size, 3 m): the simulation diverged "
                          "(try a smaller dt, or see the solver's stabilization in the README)");
  const nlohmann::json summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["completed"], false);
  EXPECT_EQ(summary["error"], result.error);
  EXPECT_EQ(read_rows(options_.out_dir / "joints.csv").size(), 3u) << "the torn frame is kept, to be seen";
  EXPECT_EQ(read_rows(options_.out_dir / "stats.csv").size(), 2u);
}

TEST_F(RunLoopTest, ASpringJointsStretchNeverStopsTheRun) {
  // With `stiffness` the joint is a spring, whose stretch the scene's size does not bound: 0.35 m a step
  // for 200 steps (70 m, past ten scene sizes of 30 m) runs to the end.
  Scene scene = jointed_scene(0.01, 2.0, std::nullopt);
  for (BodyDef& body : scene.bodies) body.shape = BoxShape{Vec3::Ones()};
  scene.joints[0].stiffness = 1e3;
  TearingSimulator simulator;
  simulator.rate = 0.35;
  const RunResult result = run_simulation(scene, simulator, options_);
  EXPECT_TRUE(result.completed) << result.error;
  EXPECT_EQ(result.steps, 200);
}

TEST_F(RunLoopTest, ASteadyJointGapBelowTheLimitNeverStopsTheRun) {
  // The recording fake keeps a 0.5 m gap: a tenth of the 6 m boxes' scene is 1.8 m.
  RecordingSimulator simulator;
  const RunResult result = run_simulation(jointed_scene(0.01, 0.5, std::nullopt), simulator, options_);
  EXPECT_TRUE(result.completed) << result.error;
}

class InterruptTest : public RunLoopTest, public testing::WithParamInterface<int> {};

TEST_P(InterruptTest, ASignalStopsTheRunAfterTheStepAndTheSummarySaysSo) {
  FakeSimulator simulator;
  simulator.signal_at = 3;
  simulator.signal = GetParam();
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.steps, 3);  // the step in progress is finished and written
  const std::string name = GetParam() == SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_EQ(result.error, "interrupted by " + name + " after step 3 (t = 0.03 s)");
  EXPECT_EQ(read_rows(options_.out_dir / "stats.csv").size(), 3u);
  EXPECT_EQ(read_rows(options_.out_dir / "trajectory.csv").size(), 4u * 2u);
  const auto summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["completed"], false);
  EXPECT_EQ(summary["error"], result.error);
  // The handler is gone with the run: the next run is not interrupted by the old signal.
  FakeSimulator again;
  options_.out_dir = dir_ / "again";
  EXPECT_TRUE(run_simulation(two_body_scene(0.01, 0.05, std::nullopt), again, options_).completed);
}

INSTANTIATE_TEST_SUITE_P(SigintAndSigterm, InterruptTest, testing::Values(SIGINT, SIGTERM));

TEST_F(RunLoopTest, AnOutputFileThatCannotBeCreatedStopsTheRunNamingItAndTheSummarySaysWhy) {
  fs::create_directories(options_.out_dir / "stats.csv");  // a directory where the file should go
  FakeSimulator simulator;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_NE(result.error.find("stats.csv"), std::string::npos) << result.error;
  EXPECT_NE(result.error.find("cannot create"), std::string::npos) << result.error;
  EXPECT_EQ(simulator.step_count(), 0);
  const auto summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["completed"], false);
  EXPECT_EQ(summary["steps"], 0);
}

TEST_F(RunLoopTest, AnInvertedBodyStopsTheRunNamingStepTimeAndBody) {
  FakeSimulator simulator;
  simulator.deform_from = 2;
  simulator.deformed = Vec3(1.0, 1.0, -1.0).asDiagonal();  // mirrored: det A = −1
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.error.rfind("step 2 (t = 0.02 s): body 'right' is inverted", 0), 0u) << result.error;
  EXPECT_EQ(read_rows(options_.out_dir / "stats.csv").size(), 2u);             // the step's row stays
  EXPECT_EQ(read_rows(options_.out_dir / "trajectory.csv").size(), 2u * 2u);  // its frame does not
}

TEST_F(RunLoopTest, ADegenerateBodyIsInvertedToo) {
  FakeSimulator simulator;
  simulator.deform_from = 1;
  simulator.deformed = Vec3(1.0, 1.0, 0.0).asDiagonal();  // flattened: det A = 0
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_NE(result.error.find("body 'right' is inverted"), std::string::npos) << result.error;
}

TEST_F(RunLoopTest, AStrainedBodyIsCountedAsAWarningEveryStepAndTheRunGoesOn) {
  FakeSimulator simulator;
  simulator.deform_from = 3;
  simulator.deformed = Vec3(1.0, 1.5, 1.0).asDiagonal();  // stretched by 50 % along y
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  ASSERT_TRUE(result.completed) << result.error;
  const auto rows = read_rows(options_.out_dir / "stats.csv");
  ASSERT_EQ(rows.size(), 5u);
  for (int n = 1; n <= 5; ++n) EXPECT_EQ(rows[n - 1][13], n >= 3 ? "1" : "0") << "step " << n;
  EXPECT_EQ(result.warnings, 3);
  EXPECT_NEAR(result.max_strain, 0.5, 1e-12);
  const auto summary = read_json(options_.out_dir / "summary.json");
  EXPECT_EQ(summary["warnings"], 3);
  EXPECT_NEAR(summary["max_strain"].get<double>(), 0.5, 1e-12);
}

TEST_F(RunLoopTest, ARotatedOrSlightlyStrainedBodyIsNoWarning) {
  FakeSimulator simulator;
  simulator.deform_from = 1;
  simulator.deformed = Eigen::AngleAxisd(2.0, Vec3(1, 2, 3).normalized()).toRotationMatrix() * 1.05;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  ASSERT_TRUE(result.completed) << result.error;
  EXPECT_EQ(result.warnings, 0);
  EXPECT_NEAR(result.max_strain, 0.05, 1e-12);
}

TEST_F(RunLoopTest, ARunWhoseEveryStepHitTheIterationCapIsNotCompleted) {
  FakeSimulator simulator;
  simulator.capped = true;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  EXPECT_EQ(result.steps, 5);
  EXPECT_NE(result.error.find("every step (5) ended without converging"), std::string::npos) << result.error;
  EXPECT_EQ(read_json(options_.out_dir / "summary.json")["completed"], false);
}

TEST_F(RunLoopTest, AnIgnoredSignalStaysIgnored) {
  // A shell starts background jobs with SIGINT ignored; the run must not take that choice back.
  const auto previous = std::signal(SIGINT, SIG_IGN);
  FakeSimulator simulator;
  simulator.signal_at = 2;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  EXPECT_EQ(std::signal(SIGINT, previous), SIG_IGN) << "the disposition is restored as it was";
  EXPECT_TRUE(result.completed) << result.error;
}

TEST_F(RunLoopTest, ABodySquashedFlatOrStretchedTenfoldStopsTheRun) {
  for (const auto& [diagonal, word] : {std::pair{Vec3(1.0, 1.0, 1e-6), "collapsed"},
                                       std::pair{Vec3(1.0, 20.0, 1.0), "blew up"}}) {
    FakeSimulator simulator;
    simulator.deform_from = 2;
    simulator.deformed = diagonal.asDiagonal();
    options_.out_dir = dir_ / word;
    const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
    EXPECT_FALSE(result.completed);
    EXPECT_EQ(result.error.rfind(std::string("step 2 (t = 0.02 s): body 'right' ") + word, 0), 0u) << result.error;
  }
}

TEST_F(RunLoopTest, ASceneFileInTheOutputDirectoryUnderAnOutputNameIsNeverTouched) {
  fs::create_directories(options_.out_dir);
  Scene scene = two_body_scene(0.01, 0.05, std::nullopt);
  scene.file = options_.out_dir / "meshes.json";
  std::ofstream(scene.file) << "the user's scene";
  FakeSimulator simulator;
  EXPECT_THROW(run_simulation(scene, simulator, options_), InputError);
  EXPECT_EQ(slurp(scene.file), "the user's scene");
  EXPECT_EQ(simulator.step_count(), 0);
}

TEST_F(RunLoopTest, TwoRunsIntoOneDirectoryAtOnceAreRefused) {
  // The second run starts while the first is between steps: the directory is locked.
  FakeSimulator inner;
  struct Nested : FakeSimulator {
    std::function<void()> during;
    StepStats step() override {
      if (during) std::exchange(during, nullptr)();
      return FakeSimulator::step();
    }
  } outer;
  const Scene scene = two_body_scene(0.01, 0.05, std::nullopt);
  bool refused = false;
  outer.during = [&] {
    try {
      run_simulation(scene, inner, options_);
    } catch (const InputError& e) {
      refused = std::string(e.what()).find("another affix run is writing into this directory") != std::string::npos;
    }
  };
  EXPECT_TRUE(run_simulation(scene, outer, options_).completed);
  EXPECT_TRUE(refused);
  EXPECT_EQ(inner.step_count(), 0);
  // Once the first run is done, the directory is free again.
  FakeSimulator later;
  EXPECT_TRUE(run_simulation(scene, later, options_).completed);
}

TEST_F(RunLoopTest, ASignalWhileTheSceneLoadsStopsTheRunBeforeItsFirstStepWithAnHonestSummary) {
  // The command's guard is alive while it loads the scene; the run loop's guard nests inside it.
  fs::create_directories(options_.out_dir);
  std::ofstream(options_.out_dir / "summary.json") << R"({"scene": "other", "completed": true})";
  const InterruptGuard command_guard;
  std::raise(SIGINT);  // "loading" is interrupted
  FakeSimulator simulator;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.05, std::nullopt), simulator, options_);
  EXPECT_EQ(simulator.step_count(), 0);
  EXPECT_EQ(result.error, "interrupted by SIGINT after step 0 (t = 0 s)");
  EXPECT_EQ(read_json(options_.out_dir / "summary.json")["scene"], "fake_scene");
}

// ---------------------------------------------------------------- trajectory.h5

/// The fake, moving its bodies by thirds of a metre per step so that every number is a long one.
class ThirdsSimulator : public FakeSimulator {
 public:
  std::vector<BodyPose> poses() const override {
    std::vector<BodyPose> poses = FakeSimulator::poses();
    for (BodyPose& pose : poses) {
      pose.p *= 1.0 / 3.0;
      pose.A = Eigen::AngleAxisd(0.1 * step_count(), Vec3(1, 2, 3).normalized()).matrix();
    }
    return poses;
  }
};

TEST_F(RunLoopTest, AnHdf5RunHoldsTheFramesAndNumbersOfTheCsvRun) {
  const Scene scene = two_body_scene(0.01, 0.2, 30.0);
  ThirdsSimulator csv_simulator;
  run_simulation(scene, csv_simulator, options_);
  const auto rows = read_rows(options_.out_dir / "trajectory.csv");
  options_.out_dir = dir_ / "h5";
  options_.format = TrajectoryFormat::hdf5;
  ThirdsSimulator h5_simulator;
  ASSERT_TRUE(run_simulation(scene, h5_simulator, options_).completed);
  EXPECT_FALSE(fs::exists(options_.out_dir / "trajectory.csv"));
  const TrajectoryH5Reader h5(options_.out_dir / "trajectory.h5", {"left", "right"});
  ASSERT_EQ(static_cast<std::size_t>(h5.frames()) * 2, rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const int frame = static_cast<int>(r / 2);
    EXPECT_EQ(rows[r][0], std::to_string(frame));
    EXPECT_EQ(std::strtod(rows[r][1].c_str(), nullptr), h5.time(frame));
    const std::vector<double> values = h5.frame(frame);
    for (std::size_t j = 0; j < 12; ++j)  // round-trip text and binary: the same double
      EXPECT_EQ(std::strtod(rows[r][3 + j].c_str(), nullptr), values[12 * (r % 2) + j]) << "row " << r << " column " << j;
  }
}

TEST_F(RunLoopTest, AFailedHdf5RunKeepsEveryFrameWritten) {
  FakeSimulator simulator;
  simulator.fail_at = 4;
  options_.format = TrajectoryFormat::hdf5;
  const RunResult result = run_simulation(two_body_scene(0.01, 0.1, std::nullopt), simulator, options_);
  EXPECT_FALSE(result.completed);
  const TrajectoryH5Reader h5(options_.out_dir / "trajectory.h5", {"left", "right"});
  ASSERT_EQ(h5.frames(), 4);  // steps 0..3
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(h5.time(f), f * 0.01);
    EXPECT_EQ(h5.frame(f)[0], f);        // body 0 at x = n
    EXPECT_EQ(h5.frame(f)[12 + 1], -f);  // body 1 at y = −n
  }
}

/// The fake with `bodies` bodies at rest.
class ManyBodySimulator : public FakeSimulator {
 public:
  explicit ManyBodySimulator(std::size_t bodies) : bodies_(bodies) {}
  std::vector<BodyPose> poses() const override { return std::vector<BodyPose>(bodies_); }
  std::vector<BodyVelocity> velocities() const override { return std::vector<BodyVelocity>(bodies_); }

 private:
  std::size_t bodies_;
};

TEST_F(RunLoopTest, WithoutAFormatScenesOfMoreThanTenThousandBodiesWriteHdf5) {
  for (const std::size_t bodies : {kMaxCsvTrajectoryBodies, kMaxCsvTrajectoryBodies + 1}) {
    Scene scene = two_body_scene(0.01, 0.01, std::nullopt);
    scene.bodies.resize(bodies);
    for (std::size_t b = 0; b < bodies; ++b) scene.bodies[b].name = std::to_string(b);
    ManyBodySimulator simulator(bodies);
    options_.out_dir = dir_ / std::to_string(bodies);
    ASSERT_TRUE(run_simulation(scene, simulator, options_).completed);
    const bool h5 = bodies > kMaxCsvTrajectoryBodies;
    EXPECT_EQ(fs::exists(options_.out_dir / "trajectory.h5"), h5) << bodies;
    EXPECT_EQ(fs::exists(options_.out_dir / "trajectory.csv"), !h5) << bodies;
  }
}

}  // namespace
}  // namespace affix
