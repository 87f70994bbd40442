// Fixed and kinematic bodies follow their prescription exactly (they are Dirichlet DOFs), on every
// solver that has prescribed motion.
#include <gtest/gtest.h>

#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

class PrescribedMotion : public test::SolverTest {};

TEST_P(PrescribedMotion, KinematicBodyFollowsKeyframesExactly) {
  // The scene has a ground, which the arm never reaches.
  AFFIX_REQUIRE(GetParam(), Feature::prescribed_motion, Feature::ground_contact);
  BodyDef arm = test::box_body("arm", Vec3(1, 0.1, 0.1), Vec3(0, 0, 1));
  Kinematic k;
  // Rotations about one axis, so slerp is linear in the angle and the expected pose is closed-form.
  k.keyframes = {{0.5, Vec3(1, 0, 1), Quat(Eigen::AngleAxisd(1.0, Vec3::UnitZ()))},
                 {1.0, Vec3(1, 2, 2), Quat(Eigen::AngleAxisd(2.5, Vec3::UnitZ()))}};
  arm.kinematic = k;
  Scene scene = test::scene_with({arm}, 0.01);
  const auto sim = test::simulate(scene, GetParam());
  for (int n = 1; n <= 150; ++n) {
    sim->step();
    const double t = n * 0.01;
    Vec3 p;
    double angle;
    if (t < 0.5) {
      p = Vec3(0, 0, 1) + (t / 0.5) * Vec3(1, 0, 0), angle = t / 0.5;
    } else if (t < 1.0) {
      const double s = (t - 0.5) / 0.5;
      p = Vec3(1, 0, 1) + s * Vec3(0, 2, 1), angle = 1.0 + 1.5 * s;
    } else {
      p = Vec3(1, 2, 2), angle = 2.5;  // held after the last key
    }
    const Mat3 R = Eigen::AngleAxisd(angle, Vec3::UnitZ()).toRotationMatrix();
    EXPECT_LT((sim->poses()[0].p - p).norm(), 1e-12) << "t = " << t;
    EXPECT_LT((sim->poses()[0].A - R).norm(), 1e-12) << "t = " << t;
  }
}

TEST_P(PrescribedMotion, ConstantTwistAndFixedBodies) {
  AFFIX_REQUIRE(GetParam(), Feature::prescribed_motion, Feature::ground_contact);
  BodyDef spinner = test::box_body("spinner", Vec3(1, 0.2, 0.2), Vec3(0, 0, 2));
  Kinematic k;
  k.velocity = Vec3(0.5, 0, 0);
  k.angular_velocity = Vec3(0, 0, 3);
  spinner.kinematic = k;
  BodyDef post = test::box_body("post", Vec3(0.2, 0.2, 1), Vec3(3, 0, 0.6));
  post.fixed = true;
  Scene scene = test::scene_with({spinner, post}, 0.01);
  const auto sim = test::simulate(scene, GetParam());
  for (int n = 1; n <= 50; ++n) sim->step();
  const Mat3 R = Eigen::AngleAxisd(3 * 0.5, Vec3::UnitZ()).toRotationMatrix();
  EXPECT_LT((sim->poses()[0].p - Vec3(0.25, 0, 2)).norm(), 1e-12);
  EXPECT_LT((sim->poses()[0].A - R).norm(), 1e-12);
  EXPECT_EQ(sim->poses()[1].p, Vec3(3, 0, 0.6));
  EXPECT_EQ(sim->poses()[1].A, Mat3::Identity());
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, PrescribedMotion, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
