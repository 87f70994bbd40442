// joints.csv and contacts.csv from `affix run` (DESIGN §4), checked from outside as a user would: a
// pendulum's ball joint holds to 1e-6 m over the run by the anchors the file gives (the test computes
// the gap itself), the anchors are the joint point carried by each body, and a box dropped on the
// ground with --contacts ends resting on contacts whose normals point up and whose forces carry m·g.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/io/csv_reader.hpp"
#include "affix/math/types.hpp"
#include "support/run_command.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

constexpr double kG = 9.81;

struct Csv {
  std::string header;
  std::vector<std::vector<std::string>> rows;
};

Csv read_csv(const fs::path& path) {
  std::ifstream in(path);
  Csv csv;
  std::getline(in, csv.header);
  for (std::string line; std::getline(in, line);) csv.rows.push_back(split_csv_line(line));
  return csv;
}

double num(const std::string& field) { return std::stod(field); }
Vec3 vec(const std::vector<std::string>& row, int at) { return Vec3(num(row[at]), num(row[at + 1]), num(row[at + 2])); }

class RunOutputRecords : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_records_cli_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Writes `scene` and runs `affix run` on it into dir_/out with `extra` arguments; expects exit 0.
  fs::path run(const nlohmann::json& scene, const std::vector<std::string>& extra = {}) {
    const fs::path file = dir_ / "scene.json";
    std::ofstream(file) << scene.dump(2);
    const fs::path out = dir_ / "out";
    std::vector<std::string> argv = {AFFIX_EXECUTABLE, "run", file.string(), "--out", out.string(), "--quiet"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const test::CommandResult r = test::run_command(argv);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return out;
  }
  fs::path dir_;
};

/// A 0.1 m ball hanging from the world by a ball joint 0.5 m away, released horizontally: it swings
/// down through 0.5 m in about a third of its 1 s run.
nlohmann::json pendulum() {
  return nlohmann::json::parse(R"({
    "version": 1,
    "settings": { "dt": 0.01, "duration": 1.0, "output_fps": 50 },
    "bodies": [ { "name": "bob", "shape": { "sphere": 0.1 }, "position": [0.5, 0, 1] } ],
    "joints": [ { "name": "pivot", "type": "ball", "body1": "bob", "body2": "world", "anchor": [0, 0, 1] } ]
  })");
}

TEST_F(RunOutputRecords, APendulumsBallJointHoldsByItsAnchorsOnEveryFrame) {
  const fs::path out = run(pendulum());
  const Csv joints = read_csv(out / "joints.csv");
  const Csv trajectory = read_csv(out / "trajectory.csv");
  EXPECT_EQ(joints.header, "frame,time,joint,body1,body2,x1,y1,z1,x2,y2,z2,ax1,ay1,az1,ax2,ay2,az2,error");
  ASSERT_EQ(joints.rows.size(), 51u);  // frames 0 … 50, one joint
  ASSERT_EQ(joints.rows.size(), trajectory.rows.size()) << "one body, one joint: row k is frame k in both";
  double lowest = 1.0, worst = 0.0;
  for (std::size_t k = 0; k < joints.rows.size(); ++k) {
    const auto& j = joints.rows[k];
    const auto& t = trajectory.rows[k];
    ASSERT_EQ(j.size(), 18u);
    EXPECT_EQ(j[0], t[0]) << "frame";
    EXPECT_EQ(j[1], t[1]) << "time";
    EXPECT_EQ(j[2], "pivot");
    EXPECT_EQ(j[3], "bob");
    EXPECT_EQ(j[4], "world");
    const Vec3 a1 = vec(j, 5), a2 = vec(j, 8);
    const double gap = (a1 - a2).norm();  // computed here, not taken from the file
    worst = std::max(worst, gap);
    EXPECT_NEAR(num(j[17]), gap, 1e-12) << "the file's error is the anchors' gap";
    EXPECT_EQ(a2, Vec3(0, 0, 1)) << "the world keeps its anchor";
    // anchor1 is the joint point carried by the bob: A·x̄ + p with x̄ = (−0.5, 0, 0) in its rest frame.
    Mat3 A;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) A(r, c) = num(t[6 + 3 * r + c]);
    const Vec3 p = vec(t, 3);
    EXPECT_NEAR((A * Vec3(-0.5, 0, 0) + p - a1).norm(), 0.0, 1e-12) << "frame " << k;
    lowest = std::min(lowest, p.z());
  }
  EXPECT_LT(worst, 1e-6) << "the ball joint came apart";
  EXPECT_LT(lowest, 0.6) << "the pendulum did not swing";
  EXPECT_FALSE(fs::exists(out / "contacts.csv")) << "not asked for";
}

/// A 0.2 m box (8 kg) 5 cm above the ground, dropped; at rest well before its 1.5 s are over.
nlohmann::json dropped_box() {
  return nlohmann::json::parse(R"({
    "version": 1,
    "settings": { "dt": 0.01, "duration": 1.5, "output_fps": 20 },
    "ground": { "height": 0 },
    "bodies": [ { "name": "box", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [0, 0, 0.15] } ]
  })");
}

TEST_F(RunOutputRecords, ABoxAtRestOnTheGroundStandsOnContactsThatCarryItsWeight) {
  const fs::path out = run(dropped_box(), {"--contacts"});
  EXPECT_FALSE(fs::exists(out / "joints.csv")) << "no joints, no joints.csv";
  const Csv contacts = read_csv(out / "contacts.csv");
  EXPECT_EQ(contacts.header, "frame,time,body1,body2,x,y,z,nx,ny,nz,distance,force");
  std::map<int, double> force_per_frame;
  std::map<int, std::string> time_of_frame;
  for (const auto& row : contacts.rows) {
    ASSERT_EQ(row.size(), 12u);
    EXPECT_EQ(row[2], "box");
    EXPECT_EQ(row[3], "ground");
    EXPECT_EQ(vec(row, 7), Vec3(0, 0, 1));
    EXPECT_GT(num(row[10]), 0.0) << "a barrier keeps a gap";
    EXPECT_LT(num(row[10]), 1e-3) << "within d̂";
    EXPECT_NEAR(num(row[6]), 0.5 * num(row[10]), 1e-12) << "midway between the corner and the ground";
    force_per_frame[std::stoi(row[0])] += num(row[11]);
    time_of_frame[std::stoi(row[0])] = row[1];
  }
  const Csv trajectory = read_csv(out / "trajectory.csv");
  ASSERT_EQ(trajectory.rows.size(), 31u);
  for (const auto& [frame, time] : time_of_frame) EXPECT_EQ(time, trajectory.rows[frame][1]) << "frame " << frame;
  EXPECT_EQ(force_per_frame.count(0), 0u) << "5 cm up at the start: no contact";
  // At rest over the last quarter second: the contacts carry m·g = 8 kg × 9.81 m/s².
  for (int frame = 25; frame <= 30; ++frame) {
    ASSERT_EQ(force_per_frame.count(frame), 1u) << "frame " << frame;
    EXPECT_NEAR(force_per_frame[frame], 8.0 * kG, 1e-3 * 8.0 * kG) << "frame " << frame;
  }
}

TEST_F(RunOutputRecords, WithoutTheFlagThereIsNoContactsCsv) {
  const fs::path out = run(dropped_box());
  EXPECT_TRUE(fs::exists(out / "trajectory.csv"));
  EXPECT_FALSE(fs::exists(out / "contacts.csv"));
}

}  // namespace
}  // namespace affix
