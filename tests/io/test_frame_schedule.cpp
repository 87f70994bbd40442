// Which steps become frames (DESIGN §4): frame k is the state after the last step with
// n·dt ≤ k/output_fps, never an interpolation; output_fps = 1/dt or no output_fps writes every step.
#include <gtest/gtest.h>

#include "affix/io/frame_schedule.hpp"

namespace affix {
namespace {

TEST(StepCount, WholeNumberOfStepsTakesNoExtraStep) {
  EXPECT_EQ(step_count(1.0, 0.01), 100);
  EXPECT_EQ(step_count(0.05, 0.01), 5);
  EXPECT_EQ(step_count(0.3, 0.1), 3);  // 0.3 / 0.1 = 2.9999999999999996
  EXPECT_EQ(step_count(0.7, 0.1), 7);  // 0.7 / 0.1 = 6.999999999999999
  EXPECT_EQ(step_count(2.0, 1.0 / 3.0), 6);
}

TEST(StepCount, PartialLastStepIsTaken) {
  EXPECT_EQ(step_count(0.05, 0.03), 2);   // the run ends at t = 0.06 ≥ duration
  EXPECT_EQ(step_count(0.015, 0.01), 2);
  EXPECT_EQ(step_count(0.001, 0.01), 1);  // a duration shorter than dt still takes one step
}

TEST(FrameSchedule, WithoutOutputFpsEveryStepIsAFrame) {
  const FrameSchedule schedule(0.01, 0.05, std::nullopt);
  EXPECT_EQ(schedule.steps(), 5);
  ASSERT_EQ(schedule.frames(), 6);  // the initial state and one per step
  for (int k = 0; k < schedule.frames(); ++k) EXPECT_EQ(schedule.step_of_frame(k), k);
}

TEST(FrameSchedule, ThirtyFpsAtHundredHertzTakesTheLastStepNotAfterTheFrame) {
  const FrameSchedule schedule(0.01, 1.0, 30.0);
  EXPECT_EQ(schedule.steps(), 100);
  ASSERT_EQ(schedule.frames(), 31);
  EXPECT_EQ(schedule.step_of_frame(0), 0);
  EXPECT_EQ(schedule.step_of_frame(1), 3);  // 1/30 = 0.0333…: the state at t = 0.03
  EXPECT_DOUBLE_EQ(schedule.step_time(3), 0.03);
  EXPECT_EQ(schedule.step_of_frame(2), 6);  // 0.0666…
  EXPECT_EQ(schedule.step_of_frame(3), 10);  // 0.1 exactly: step 10, not step 9
  EXPECT_EQ(schedule.step_of_frame(10), 33);
  EXPECT_EQ(schedule.step_of_frame(30), 100);  // t = 1.0, the last state
}

TEST(FrameSchedule, FpsEqualToOneOverDtWritesEveryStep) {
  // k/fps and n·dt round differently; the relative slack must still pair frame k with step k.
  for (const double dt : {0.01, 0.001, 0.1, 0.02, 0.007, 1.0 / 3.0, 1.0 / 60.0, 1.0 / 240.0, 1e-4}) {
    for (const double duration : {1.0, 2.5, 0.3}) {
      const FrameSchedule schedule(dt, duration, 1.0 / dt);
      SCOPED_TRACE(testing::Message() << "dt = " << dt << ", duration = " << duration);
      ASSERT_GE(schedule.frames(), schedule.steps());
      ASSERT_LE(schedule.frames(), schedule.steps() + 1);
      for (int k = 0; k < schedule.frames(); ++k) ASSERT_EQ(schedule.step_of_frame(k), k);
    }
  }
}

TEST(FrameSchedule, HundredFpsAtHundredHertzIsEveryStep) {
  const FrameSchedule schedule(0.01, 0.05, 100.0);
  ASSERT_EQ(schedule.frames(), 6);
  for (int k = 0; k < schedule.frames(); ++k) EXPECT_EQ(schedule.step_of_frame(k), k);
}

TEST(FrameSchedule, LastFrameIsIncludedWhenTheDurationIsWholeFramePeriods) {
  const FrameSchedule schedule(0.001, 1.0, 30.0);
  ASSERT_EQ(schedule.frames(), 31);
  EXPECT_EQ(schedule.step_of_frame(30), 1000);
}

TEST(FrameSchedule, TheFinalStateIsTheLastFrameWhenTheFramesDoNotDivideTheDuration) {
  // Frames at 0 and 1/30 show steps 0 and 3; the final step (5, t = 0.05) is frame 2 at 2/30 = 0.067,
  // the last step with t ≤ 2/30 (DESIGN §4). Before, the run ended on frame 1 and lost the final state.
  const FrameSchedule schedule(0.01, 0.05, 30.0);
  ASSERT_EQ(schedule.frames(), 3);
  EXPECT_EQ(schedule.step_of_frame(1), 3);
  EXPECT_EQ(schedule.step_of_frame(2), 5);
  const FrameSchedule longer(0.01, 1.05, 10.0);  // frames 0 … 10 at whole tenths, then 1.1 s → step 105
  ASSERT_EQ(longer.frames(), 12);
  EXPECT_EQ(longer.step_of_frame(10), 100);
  EXPECT_EQ(longer.step_of_frame(11), 105);
}

TEST(FrameSchedule, StepsThatEndPastTheDurationAreFramedUntilTheLastOne) {
  // dt 0.7 over 0.99 s: steps at 0.7 and 1.4; frame 1 (t = 1) shows step 1, frame 2 (t = 2) step 2.
  const FrameSchedule schedule(0.7, 0.99, 1.0);
  ASSERT_EQ(schedule.frames(), 3);
  const int expected[] = {0, 1, 2};
  for (int k = 0; k < 3; ++k) EXPECT_EQ(schedule.step_of_frame(k), expected[k]) << "frame " << k;
}

TEST(FrameSchedule, PartialLastStepStillFramesStatesNotAfterTheFrameTime) {
  const FrameSchedule schedule(0.03, 0.05, 100.0);  // steps at 0.03, 0.06
  ASSERT_EQ(schedule.frames(), 7);
  const int expected[] = {0, 0, 0, 1, 1, 1, 2};  // frames at 0, 0.01, …, 0.05, and 0.06 for the final step
  for (int k = 0; k < 7; ++k) EXPECT_EQ(schedule.step_of_frame(k), expected[k]) << "frame " << k;
}

TEST(FrameSchedule, FramesFasterThanStepsRepeatAState) {
  // The loader refuses output_fps > 1/dt; the schedule itself still answers sensibly.
  const FrameSchedule schedule(0.1, 0.2, 20.0);
  ASSERT_EQ(schedule.frames(), 5);
  const int expected[] = {0, 0, 1, 1, 2};
  for (int k = 0; k < 5; ++k) EXPECT_EQ(schedule.step_of_frame(k), expected[k]) << "frame " << k;
}

TEST(FrameSchedule, StepTimeIsAProductNotASum) {
  const FrameSchedule schedule(0.1, 100.0, std::nullopt);
  EXPECT_EQ(schedule.step_time(1000), 1000 * 0.1);  // a running sum of 0.1 drifts off this
  EXPECT_EQ(schedule.step_time(0), 0.0);
}

TEST(FrameSchedule, AMillionTimesLongerRunIsDescribedWithoutStoringItsFrames) {
  // 10⁹ steps, the most a scene may ask for: the schedule answers at once, frame by frame.
  const FrameSchedule every_step(1e-9, 1.0, std::nullopt);
  EXPECT_EQ(every_step.steps(), 1000000000);
  EXPECT_EQ(every_step.frames(), 1000000001);
  EXPECT_EQ(every_step.step_of_frame(999999999), 999999999);
  const FrameSchedule at_fps(1e-9, 1.0, 1e9);
  EXPECT_EQ(at_fps.frames(), 1000000001);
  EXPECT_EQ(at_fps.step_of_frame(1000000000), 1000000000);
  const FrameSchedule thirty(1e-9, 1.0, 30.0);
  EXPECT_EQ(thirty.frames(), 31);
  EXPECT_EQ(thirty.step_of_frame(30), 1000000000);
}

}  // namespace
}  // namespace affix
