// `affix view --max-pose-mb MB` through the executable: a budget must be a number of megabytes greater
// than 0 (and at most 100000); 0, negative numbers, NaN, infinity and text are usage errors reported
// like every bad input — one line `affix: error: --max-pose-mb ...`, exit 2 — not in CLI11's words.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/run_command.hpp"
#include "support/run_output_fuzz.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

class ViewOptions : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    run_ = fs::temp_directory_path() / ("affix_view_options_" + std::to_string(::getpid()));
    fs::remove_all(run_);
    test::write_tiny_run(run_);
  }
  static void TearDownTestSuite() { fs::remove_all(run_); }

  static test::CommandResult view(const std::vector<std::string>& options) {
    std::vector<std::string> argv = {AFFIX_EXECUTABLE, "view", run_.string()};
    argv.insert(argv.end(), options.begin(), options.end());
    return test::run_command(argv);
  }

  static inline fs::path run_;
};

TEST_F(ViewOptions, MaxPoseMbMustBeAPositiveNumber) {
  for (const std::string value : {"0", "-1", "-0.5", "nan", "NaN", "inf", "-inf", "abc", "20MB", "1e9", "1e400"}) {
    const test::CommandResult result = view({"--max-pose-mb=" + value});
    EXPECT_EQ(result.exit_code, 2) << value;
    EXPECT_EQ(result.err, "affix: error: --max-pose-mb " + value +
                              ": expected a number of megabytes greater than 0, at most 100000\n")
        << value;
  }
  // Also as a separate argument, where a negative number could pass for an option.
  const test::CommandResult negative = view({"--max-pose-mb", "-1"});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_TRUE(negative.err.starts_with("affix: error: --max-pose-mb -1: expected")) << negative.err;
}

TEST_F(ViewOptions, ASmallBudgetKeepsFewerFrames) {
  const test::CommandResult all = view({"--max-pose-mb", "20"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("6 of 6 frames"), std::string::npos) << all.out;
  // 0.0002 MB = 200 bytes: two frames of two bodies (96 bytes each).
  const test::CommandResult few = view({"--max-pose-mb", "0.0002"});
  EXPECT_EQ(few.exit_code, 0) << few.err;
  EXPECT_NE(few.out.find("2 of 6 frames"), std::string::npos) << few.out;
}

}  // namespace
}  // namespace affix
