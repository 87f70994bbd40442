// The progress line: in place with '\r', throttled, and silent when disabled.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "affix/io/progress.hpp"

namespace affix {
namespace {

TEST(ProgressLine, DisabledPrintsNothing) {
  std::ostringstream out;
  ProgressLine progress(out, 10, false);
  progress.update(1, 0.01);
  progress.finish(10, 0.1);
  EXPECT_TRUE(out.str().empty());
}

TEST(ProgressLine, RewritesOneLineInPlace) {
  std::ostringstream out;
  ProgressLine progress(out, 500, true);
  progress.update(120, 1.2);
  const std::string first = out.str();
  EXPECT_EQ(first.front(), '\r');
  EXPECT_NE(first.find("step 120/500"), std::string::npos) << first;
  EXPECT_NE(first.find("t = 1.2 s"), std::string::npos) << first;
  EXPECT_NE(first.find("ms/step"), std::string::npos) << first;
  EXPECT_EQ(first.find('\n'), std::string::npos);
}

TEST(ProgressLine, UpdatesCloserThanTheIntervalAreDropped) {
  std::ostringstream out;
  ProgressLine progress(out, 1000, true);
  progress.update(1, 0.01);
  const std::size_t after_first = out.str().size();
  for (int n = 2; n < 50; ++n) progress.update(n, n * 0.01);  // well within 100 ms
  EXPECT_EQ(out.str().size(), after_first);
}

TEST(ProgressLine, FinishPrintsTheFinalStateAndEndsTheLine) {
  std::ostringstream out;
  ProgressLine progress(out, 10, true);
  progress.update(1, 0.01);
  progress.finish(10, 0.1);
  const std::string text = out.str();
  EXPECT_NE(text.find("step 10/10"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace
}  // namespace affix
