// Body splitting (Tomcin 2014 §5, solvers/impulse/body_splitting.hpp): the 50-leg spider (Fig. 5a),
// its body tumbling so that every leg is flung and pulls on it, moves the same split into parts as
// unsplit — every body's pose within 1e-6 m over 1 s — while the split system couples each part's few
// joints only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "affix/scene/generate/spider.hpp"
#include "affix/solvers/impulse/body_splitting.hpp"
#include "affix/solvers/impulse/impulse_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

Scene tumbling_spider(int split_parts) {
  Scene scene = generate::spider({50});
  scene.bodies[0].angular_velocity = Vec3(0.5, 0.3, 3.0);  // the body (rad/s); the legs follow it
  scene.settings.solver_settings["impulse"]["position_tolerance"] = 1e-9;
  scene.settings.solver_settings["impulse"]["split_parts"] = split_parts;
  return scene;
}

TEST(ImpulseSplitting, TheFiftyLegSpiderMovesTheSameSplitAndUnsplit) {
  ImpulseSimulator whole(test::compiled(tumbling_spider(1), "impulse"));
  ImpulseSimulator split(test::compiled(tumbling_spider(0), "impulse"));
  const int model_bodies = static_cast<int>(whole.poses().size());
  ASSERT_EQ(model_bodies, 101);
  EXPECT_EQ(whole.system_bodies(), model_bodies);
  // Automatic: the body's 50 leg joints, 4 per part, on 13 parts welded by 12 fixed joints of 6 rows.
  EXPECT_EQ(split.system_bodies(), model_bodies + 12);
  EXPECT_EQ(split.system_rows(), whole.system_rows() + 12 * 6);
  double gap = 0.0, moved = 0.0;
  const std::vector<BodyPose> start = whole.poses();
  for (int n = 0; n < 100; ++n) {  // 1 s at h = 0.01 s
    const StepStats a = whole.step(), b = split.step();
    ASSERT_FALSE(a.hit_iteration_cap || b.hit_iteration_cap) << "step " << n;
    const std::vector<BodyPose> pa = whole.poses(), pb = split.poses();
    for (int i = 0; i < model_bodies; ++i) {
      gap = std::max({gap, (pa[i].p - pb[i].p).norm(), (pa[i].A - pb[i].A).norm()});
      moved = std::max(moved, (pa[i].p - start[i].p - (pa[0].p - start[0].p)).norm());
    }
  }
  std::printf("spider, 50 legs: split and unsplit poses differ by %.3e at most over 1 s; a leg moved %.3f m "
              "relative to the body's centre\n", gap, moved);
  EXPECT_LT(gap, 1e-6);
  EXPECT_GT(moved, 0.1);  // the legs did swing
}

TEST(ImpulseSplitting, TheCountIsOverriddenAndFewJointsAreNeverSplit) {
  ImpulseSimulator five(test::compiled(tumbling_spider(5), "impulse"));
  EXPECT_EQ(five.system_bodies(), 101 + 4);
  Scene small = generate::spider({8});  // 8 joints on the body: not more than kSplitAbove
  ImpulseSimulator eight(test::compiled(small, "impulse"));
  EXPECT_EQ(eight.system_bodies(), 17);
  EXPECT_EQ(kSplitAbove, 8);
}

}  // namespace
}  // namespace affix
