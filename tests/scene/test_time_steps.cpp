// The step and frame counts of a run and their limit (scene/time_steps.hpp), shared by the scene
// reader, the command-line overrides and the frame schedule.
#include <gtest/gtest.h>

#include <limits>

#include "affix/scene/time_steps.hpp"

namespace affix {
namespace {

TEST(TimeSteps, StepCountRoundsUpButNotForRounding) {
  EXPECT_EQ(step_count(1.0, 0.01), 100);  // 100.00000000000001 in doubles
  EXPECT_EQ(step_count(0.3, 0.1), 3);
  EXPECT_EQ(step_count(0.05, 0.03), 2);
}

TEST(TimeSteps, ADurationShorterThanDtTakesOneStep) {
  EXPECT_EQ(step_count(0.001, 0.01), 1);
  EXPECT_EQ(step_count(1e-12, 0.01), 1);  // duration/dt below the 1e-9 slack: still one step
  EXPECT_EQ(step_count(5e-324, 1e308), 1);
}

TEST(TimeSteps, CountsBeyondAnIntAreCountedNotWrapped) {
  EXPECT_EQ(steps_needed(3e6, 1e-3), 3e9);
  EXPECT_EQ(steps_needed(1e308, 1e-308), std::numeric_limits<double>::infinity());
  EXPECT_EQ(step_count(1e7, 0.01), kMaxSteps);
  EXPECT_FALSE(step_limit_breach(1e7, 0.01));
  ASSERT_TRUE(step_limit_breach(1e7 + 1, 0.01));
  EXPECT_NE(step_limit_breach(3e6, 1e-3)->find("expected at most 1000000000 steps"), std::string::npos);
  EXPECT_EQ(*step_limit_breach(3e6, 1e-3),
            "expected at most 1000000000 steps, got duration/dt = 3e+06 s / 0.001 s = 3e+09 steps");
  // A count that overflows reads inf (nlohmann's dump() wrote "= null steps").
  EXPECT_EQ(*step_limit_breach(1e308, 1e-308),
            "expected at most 1000000000 steps, got duration/dt = 1e+308 s / 1e-308 s = inf steps");
  EXPECT_NE(frame_limit_breach(1e308, 1e10)->find("= inf frames"), std::string::npos);
}

TEST(TimeSteps, FramesAreTheInitialStateAndOnePerWholePeriod) {
  EXPECT_EQ(frames_needed(1.0, 30.0), 31.0);
  EXPECT_EQ(frames_needed(1.0, 100.0), 101.0);
  EXPECT_EQ(frames_needed(0.999, 1.0), 2.0);  // frame 1 (t = 1) shows the final state at 0.999 s
  EXPECT_EQ(frames_needed(1.05, 10.0), 12.0);
  EXPECT_FALSE(frame_limit_breach(1e7, 99.9999999));
  ASSERT_TRUE(frame_limit_breach(1e7, 100.0));  // 10⁹ + 1 frames
  EXPECT_NE(frame_limit_breach(1e7, 100.0)->find("at most 1000000000 output frames"), std::string::npos);
}

}  // namespace
}  // namespace affix
