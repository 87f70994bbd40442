// The same scene gives bit-identical states whatever the thread count (Box2D test_determinism), on
// every solver.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

class Determinism : public test::SolverTest {};

std::vector<BodyPose> run_pile(const std::string& solver, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  std::vector<BodyDef> bodies;
  for (int i = 0; i < 12; ++i) {
    BodyDef b = test::box_body("b" + std::to_string(i), Vec3(0.3, 0.2, 0.25), Vec3(i % 4, i / 4, 0.3 + 0.1 * i));
    b.rotation = Quat(Eigen::AngleAxisd(0.3 * i, Vec3(1, 0.5 * i, 1).normalized()));
    b.angular_velocity = Vec3(0.1 * i, -1, 0.5);
    bodies.push_back(b);
  }
  Scene scene = test::scene_with(bodies, 0.01);
  const auto sim = test::simulate(scene, solver);
  for (int n = 0; n < 60; ++n) sim->step();
  return sim->poses();
}

TEST_P(Determinism, SameStateOnOneAndManyThreads) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact);  // the boxes land (a metre apart: they never meet)
  const auto one = run_pile(GetParam(), 1), many = run_pile(GetParam(), 8), again = run_pile(GetParam(), 8);
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].p, many[i].p) << "body " << i;
    EXPECT_EQ(one[i].A, many[i].A) << "body " << i;
    EXPECT_EQ(many[i].p, again[i].p) << "body " << i;
    EXPECT_EQ(many[i].A, again[i].A) << "body " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, Determinism, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
