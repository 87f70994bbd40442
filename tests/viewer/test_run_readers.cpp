// The page's readers of stats.csv and summary.json (viewer/stats_reader.hpp, summary_reader.hpp): bad
// input is an InputError naming the file and the line or key; summary.json's unknown keys are kept.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "affix/error.hpp"
#include "affix/viewer/stats_reader.hpp"
#include "affix/viewer/summary_reader.hpp"

namespace affix::viewer {
namespace {

namespace fs = std::filesystem;

class RunReaders : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_run_readers_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// The InputError message of reading `text` as `name` with `read`, without the directory; "" when
  /// it reads.
  template <typename Read>
  std::string error_for(const std::string& name, const std::string& text, Read read) const {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << text;
    try {
      read(dir_ / name);
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_TRUE(message.starts_with((dir_ / name).string() + ": ")) << message;
      return message.substr(dir_.string().size() + 1);
    }
    return "";
  }
  std::string stats_error(const std::string& text) const {
    return error_for("stats.csv", text, [](const fs::path& f) { read_stats(f, 100); });
  }
  std::string summary_error(const std::string& text) const {
    return error_for("summary.json", text, [](const fs::path& f) { read_summary(f); });
  }

  fs::path dir_;
};

TEST_F(RunReaders, StatsRowsMustMatchTheHeaderAndComeInOrder) {
  const std::string header = "step,time,iterations\n";
  EXPECT_EQ(stats_error(header + "1,0.01,3\n2,0.02,4\n"), "");
  EXPECT_EQ(stats_error(header + "1,0.01,3\n2,0.02\n"), "stats.csv: line 3: expected 3 fields, got 2");
  EXPECT_EQ(stats_error(header + "1,0.01,x\n"), "stats.csv: line 2: iterations: expected a number, got 'x'");
  EXPECT_EQ(stats_error(header + "1,0.02,3\n2,0.01,4\n"),
            "stats.csv: line 3: time: expected a finite number no earlier than the step before, got '0.01'");
  EXPECT_EQ(stats_error(header + "1,nan,3\n"),
            "stats.csv: line 2: time: expected a finite number no earlier than the step before, got 'nan'");
  EXPECT_EQ(stats_error("step,iterations\n1,3\n"),
            "stats.csv: line 1: expected a stats.csv header with a `time` column, got 'step,iterations'");
  EXPECT_EQ(stats_error(header + "\n"), "stats.csv: line 2: expected 3 fields, got 1");
  EXPECT_EQ(stats_error(""), "stats.csv: the file is empty (expected a CSV header)");
}

TEST_F(RunReaders, SummaryKeysHaveTheWritersTypes) {
  EXPECT_EQ(summary_error(R"({"scene": "s", "steps": 3, "min_distance": null, "completed": true, "later": [1]})"), "");
  std::ofstream(dir_ / "summary.json", std::ios::trunc) << R"({"later": {"kept": true}})";
  EXPECT_EQ(read_summary(dir_ / "summary.json")["later"]["kept"], true);

  EXPECT_EQ(summary_error("[]"), "summary.json: (top level): expected an object (the summary of a run), got []");
  EXPECT_EQ(summary_error(R"({"steps": -1})"), "summary.json: steps: expected a whole number ≥ 0, got -1");
  EXPECT_EQ(summary_error(R"({"steps": 1.5})"), "summary.json: steps: expected a whole number ≥ 0, got 1.5");
  EXPECT_EQ(summary_error(R"({"completed": "yes"})"), "summary.json: completed: expected true or false, got \"yes\"");
  EXPECT_EQ(summary_error(R"({"scene": 3})"), "summary.json: scene: expected a string, got 3");
  EXPECT_EQ(summary_error(R"({"error": false})"), "summary.json: error: expected a string or null, got false");
  EXPECT_EQ(summary_error(R"({"wall_s": "1"})"), "summary.json: wall_s: expected a number or null, got \"1\"");
  EXPECT_NE(summary_error(std::string(10'000, '[')).find("nested more than"), std::string::npos);
  EXPECT_NE(summary_error(std::string(kMaxSummaryBytes + 1, ' ')).find("more than the 1048576 this reader accepts"),
            std::string::npos);
}

}  // namespace
}  // namespace affix::viewer
