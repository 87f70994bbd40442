// The run output writers (DESIGN §4): numbers that round-trip, the exact headers and keys of the
// contract, one row per body per frame and one per step.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/io/csv_file.hpp"
#include "affix/io/number_format.hpp"
#include "affix/io/stats_writer.hpp"
#include "affix/io/summary.hpp"
#include "affix/io/trajectory_writer.hpp"
#include "support/files.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// A fresh directory per test, removed afterwards.
class WritersTest : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("affix_io_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

using test::read_lines;

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
  return fields;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// ---------------------------------------------------------------- numbers

TEST(NumberFormat, EveryValueReadsBackBitForBit) {
  const double values[] = {0.1,     1.0 / 3.0, -2.5e-300, 5e-324,  std::numeric_limits<double>::max(),
                           1e22,    -0.0,      M_PI,      0.03,    123456789012345678.0,
                           1e-9,    9.81,      -1.0 / 7.0, 2.0 / 3.0, std::nextafter(1.0, 2.0)};
  for (const double value : values) {
    const std::string text = format_number(value);
    EXPECT_TRUE(same_bits(std::strtod(text.c_str(), nullptr), value)) << text;
  }
}

TEST(NumberFormat, SeventeenSignificantDigitsAndShortWhenExact) {
  EXPECT_EQ(format_number(0.1), "0.10000000000000001");
  EXPECT_EQ(format_number(1.0), "1");
  EXPECT_EQ(format_number(0.5), "0.5");
  EXPECT_EQ(format_number(-2.0), "-2");
  EXPECT_EQ(format_number(1e300), "1.0000000000000001e+300");
}

TEST(NumberFormat, NonFiniteValuesAreSpelledInfAndNan) {
  EXPECT_EQ(format_number(kInf), "inf");
  EXPECT_EQ(format_number(-kInf), "-inf");
  EXPECT_EQ(format_number(std::nan("")), "nan");
  EXPECT_EQ(format_number(-std::nan("")), "nan");
  EXPECT_TRUE(std::isinf(std::strtod("inf", nullptr)));
}

TEST(CsvField, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("box"), "box");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
}

// ---------------------------------------------------------------- trajectory.csv

TEST_F(WritersTest, TrajectoryHeaderIsTheContract) {
  { TrajectoryWriter writer(dir_ / "trajectory.csv", {"box"}); }
  const auto lines = read_lines(dir_ / "trajectory.csv");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "frame,time,body,x,y,z,a00,a01,a02,a10,a11,a12,a20,a21,a22");
}

TEST_F(WritersTest, TrajectoryHasOneRowPerBodyPerFrameWithPThenARowMajor) {
  BodyPose a;
  a.p = Vec3(0.1, -2.0, 3.5);
  a.A << 1, 2, 3, 4, 5, 6, 7, 8, 1.0 / 3.0;
  BodyPose b;
  {
    TrajectoryWriter writer(dir_ / "trajectory.csv", {"left", "right,2"});
    writer.write_frame(0, 0.0, {b, b});
    writer.write_frame(1, 0.03, {a, b});
  }
  const auto lines = read_lines(dir_ / "trajectory.csv");
  ASSERT_EQ(lines.size(), 5u);  // header + 2 frames × 2 bodies
  EXPECT_EQ(lines[1], "0,0,left,0,0,0,1,0,0,0,1,0,0,0,1");
  EXPECT_EQ(lines[4], "1,0.029999999999999999,\"right,2\",0,0,0,1,0,0,0,1,0,0,0,1");
  const auto fields = split(lines[3]);
  ASSERT_EQ(fields.size(), 15u);
  EXPECT_EQ(fields[0], "1");
  EXPECT_EQ(fields[2], "left");
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(std::strtod(fields[3 + i].c_str(), nullptr), a.p(i)));
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_TRUE(same_bits(std::strtod(fields[6 + 3 * i + j].c_str(), nullptr), a.A(i, j)))
          << "a" << i << j;
    }
  }
}

TEST_F(WritersTest, RowsAreOnDiskAsSoonAsTheFrameIsWritten) {
  TrajectoryWriter writer(dir_ / "trajectory.csv", {"box"});
  writer.write_frame(0, 0.0, {BodyPose{}});
  EXPECT_EQ(read_lines(dir_ / "trajectory.csv").size(), 2u);  // the writer is still open
}

TEST_F(WritersTest, UnwritableLocationIsAnOutputErrorNamingTheFileAndWhy) {
  // An output failure, which the run loop reports in summary.json (the directory itself is checked,
  // as bad input, before anything is written).
  try {
    TrajectoryWriter(dir_ / "no" / "such" / "dir" / "t.csv", {"box"});
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.csv: cannot create the output file (No such file or directory)"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------- stats.csv

TEST_F(WritersTest, StatsHeaderStartsWithTheContractColumnsThenTheDiagnostics) {
  { StatsWriter writer(dir_ / "stats.csv"); }
  const auto lines = read_lines(dir_ / "stats.csv");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "step,time,iterations,residual,min_distance,active_contacts,max_joint_error,kinetic_energy,"
            "potential_energy,wall_ms,hit_iteration_cap,line_search_evaluations,barrier_stiffness,warnings,"
            "max_penetration");
}

TEST_F(WritersTest, StatsRowFollowsTheHeaderAndWritesInfForNothingNear) {
  StepStats s;
  s.step = 3;
  s.time = 0.03;
  s.iterations = 7;
  s.residual = 1e-5;
  s.min_distance = kInf;
  s.active_contacts = 2;
  s.max_joint_error = 0.25;
  s.kinetic_energy = 1.5;
  s.potential_energy = -9.81;
  s.wall_ms = 0.125;
  s.hit_iteration_cap = true;
  s.line_search_evaluations = 11;
  s.barrier_stiffness = 1e4;
  s.warnings = 1;
  s.max_penetration = 0.5;
  { StatsWriter writer(dir_ / "stats.csv"); writer.write_step(s); }
  const auto lines = read_lines(dir_ / "stats.csv");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "3,0.029999999999999999,7,1.0000000000000001e-05,inf,2,0.25,1.5,-9.8100000000000005,"
                      "0.125,1,11,10000,1,0.5");
  EXPECT_EQ(split(lines[1]).size(), split(lines[0]).size());
}

// ---------------------------------------------------------------- summary.json

StepStats step_with(double wall_ms, int iterations, double min_distance, double joint_error, bool cap) {
  StepStats s;
  s.wall_ms = wall_ms;
  s.iterations = iterations;
  s.min_distance = min_distance;
  s.max_joint_error = joint_error;
  s.hit_iteration_cap = cap;
  return s;
}

TEST(Summary, AggregatesTheSteps) {
  const std::vector<StepStats> steps = {step_with(4.0, 3, 0.5, 1e-3, false), step_with(1.0, 5, 0.01, 2e-3, true),
                                        step_with(2.0, 4, kInf, 0.0, false), step_with(8.0, 2, 0.2, 0.0, true)};
  RunSummary summary;
  summarize_steps(steps, summary);
  EXPECT_EQ(summary.steps, 4);
  EXPECT_DOUBLE_EQ(summary.median_ms, 3.0);  // even count: mean of 2 and 4
  EXPECT_DOUBLE_EQ(summary.max_ms, 8.0);
  EXPECT_DOUBLE_EQ(summary.mean_iterations, 3.5);
  EXPECT_EQ(summary.max_iterations, 5);
  EXPECT_EQ(summary.iteration_cap_hits, 2);
  EXPECT_DOUBLE_EQ(summary.min_distance, 0.01);
  EXPECT_DOUBLE_EQ(summary.max_joint_error, 2e-3);

  summarize_steps(std::span(steps).first(3), summary);
  EXPECT_DOUBLE_EQ(summary.median_ms, 2.0);  // odd count: the middle one
}

TEST(Summary, NaNJointErrorIsNotHidden) {
  const std::vector<StepStats> steps = {step_with(1, 1, 1, 0.1, false), step_with(1, 1, 1, std::nan(""), false)};
  RunSummary summary;
  summarize_steps(steps, summary);
  EXPECT_TRUE(std::isnan(summary.max_joint_error));
}

TEST(Summary, JsonHasTheContractKeysInOrderAndNullForInfiniteDistance) {
  RunSummary summary;
  summary.scene = "drop";
  summary.solver = "ipc";
  summary.completed = true;
  summary.wall_s = 0.1;
  summary.min_distance = kInf;
  const auto json = nlohmann::ordered_json::parse(summary_json(summary));
  const std::vector<std::string> contract = {"scene",           "solver",       "steps",     "wall_s",
                                             "median_ms",       "max_ms",       "max_joint_error",
                                             "min_distance",    "completed",    "error"};
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  ASSERT_GE(keys.size(), contract.size());
  EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + static_cast<long>(contract.size())), contract);
  for (const char* extra : {"mean_iterations", "max_iterations", "iteration_cap_hits", "simulated_time",
                            "bodies", "out_dir"}) {
    EXPECT_TRUE(json.contains(extra)) << extra;
  }
  EXPECT_TRUE(json["min_distance"].is_null());
  EXPECT_TRUE(json["error"].is_null());
  EXPECT_EQ(json["completed"], true);
  EXPECT_TRUE(same_bits(json["wall_s"].get<double>(), 0.1));
}

TEST(Summary, FailedRunCarriesItsError) {
  RunSummary summary;
  summary.error = "step 4 (t = 0.04 s): energy grew without bound";
  summary.min_distance = 0.001;
  const auto json = nlohmann::json::parse(summary_json(summary));
  EXPECT_EQ(json["completed"], false);
  EXPECT_EQ(json["error"], summary.error);
  EXPECT_EQ(json["min_distance"], 0.001);
}

}  // namespace
}  // namespace affix
