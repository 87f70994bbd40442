// Edits between steps (Simulator::set_state, apply_force, set_kinematic_target), on every solver:
// what is set is what the solver then reports, and the next step moves from it as the closed form of one
// implicit Euler step says (free flight: v¹ = v⁰ + h F/m, p¹ = p⁰ + h v¹; an impulse h F at a point adds
// h (x × F) to the angular momentum).
#include <gtest/gtest.h>

#include <cmath>

#include "affix/error.hpp"
#include "affix/math/rotation.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

class StateEdits : public test::SolverTest {
 protected:
  void SetUp() override {
    if (!solver_capabilities(GetParam()).state_edits)
      GTEST_SKIP() << GetParam() << " does not support edits between steps (its Simulator keeps the refusing defaults)";
  }
};

Mat3 rotation_about(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

/// A resting 0.5 m cube at (0, 0, 1), no ground, gravity g.
Scene cube_scene(const Vec3& g) {
  Scene scene = test::scene_with({test::box_body("cube", Vec3(0.5, 0.5, 0.5), Vec3(0, 0, 1))}, 0.01, std::nullopt);
  scene.settings.gravity = g;
  scene.settings.solver_settings["ipc"]["tolerance"] = 1e-9;
  return scene;
}

TEST_P(StateEdits, SetStateIsReadBackAndStepsFromThere) {
  const Vec3 g(0, 0, -9.81);
  const auto sim = test::simulate(cube_scene(g), GetParam());
  for (int n = 0; n < 3; ++n) sim->step();
  const Vec3 p0(1, 2, 3), v0(0.5, -1, 2), w0(0, 0, 0);
  const Mat3 R0 = rotation_about(Vec3(1, 2, 3), 0.7);
  sim->set_state({BodyPose{p0, R0}}, {BodyVelocity{v0, w0, Mat3::Zero()}});
  EXPECT_EQ(sim->poses()[0].p, p0);
  EXPECT_LT((sim->poses()[0].A - R0).norm(), 1e-15);
  EXPECT_LT((sim->velocities()[0].linear - v0).norm(), 1e-15);
  EXPECT_LT(sim->velocities()[0].angular.norm(), 1e-15);
  EXPECT_EQ(sim->step_count(), 3);  // the time is unchanged
  sim->step();
  const double h = 0.01;
  // The cube's centre of mass is its origin: one implicit Euler step of free fall.
  EXPECT_LT((sim->velocities()[0].linear - (v0 + h * g)).norm(), 1e-9);
  EXPECT_LT((sim->poses()[0].p - (p0 + h * (v0 + h * g))).norm(), 1e-9);
  EXPECT_LT((sim->poses()[0].A - R0).norm(), 1e-9);
}

TEST_P(StateEdits, SetStateWithSpinKeepsTheAngularMomentumItSet) {
  const auto model = test::compiled(cube_scene(Vec3::Zero()), GetParam());
  const auto sim = make_simulator(model);
  const Vec3 w(0.3, -0.2, 0.5);
  const Mat3 R = rotation_about(Vec3(0, 1, 1), 0.4);
  sim->set_state({BodyPose{Vec3(0, 0, 1), R}}, {BodyVelocity{Vec3::Zero(), w, skew(w) * R}});
  EXPECT_LT((sim->velocities()[0].angular - w).norm(), 1e-12);
  // A cube's inertia is isotropic, I = m s²/6, so L = I ω about its centre (the origin of its frame).
  const ModelBody& b = model->bodies[0];
  const Vec3 L = b.mass * 0.25 / 6.0 * w;
  EXPECT_LT((test::angular_momentum(b, sim->poses()[0], sim->velocities()[0]) - L).norm(), 1e-6 * L.norm());
  for (int n = 0; n < 10; ++n) sim->step();
  EXPECT_LT((test::angular_momentum(b, sim->poses()[0], sim->velocities()[0]) - L).norm(), 1e-2 * L.norm());
}

TEST_P(StateEdits, Bdf2RestartsFromTheNewStateWithAnEulerStep) {
  AFFIX_REQUIRE(GetParam(), Feature::bdf2);
  const Vec3 g(0, 0, -9.81);
  Scene scene = cube_scene(g);
  scene.settings.integrator = Integrator::bdf2;
  const auto sim = test::simulate(scene, GetParam());
  for (int n = 0; n < 5; ++n) sim->step();
  const Vec3 v0(1, 0, 0);
  sim->set_state({BodyPose{Vec3(0, 0, 2), Mat3::Identity()}}, {BodyVelocity{v0, Vec3::Zero(), Mat3::Zero()}});
  sim->step();
  EXPECT_LT((sim->velocities()[0].linear - (v0 + 0.01 * g)).norm(), 1e-9);  // BDF-2 with the old history would not
}

TEST_P(StateEdits, SetStateOfAJointedBodyKeepsTheJoint) {
  AFFIX_REQUIRE(GetParam(), JointType::universal);
  // A rod hanging from the world on a universal joint (a virtual link in ipc), turned 30° about the
  // joint's first axis: a state the joint allows.
  Scene scene = test::scene_with({test::box_body("rod", Vec3(0.1, 0.1, 1.0), Vec3(0, 0, 1.5))}, 0.01, std::nullopt);
  JointDef& j = test::add_joint(scene, JointType::universal, "rod", "world");
  j.anchor = Vec3(0, 0, 2);
  j.axes = {Vec3::UnitX(), Vec3::UnitY()};
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const Mat3 R = rotation_about(Vec3::UnitX(), 0.5);
  const Vec3 anchor(0, 0, 2);
  sim->set_state({BodyPose{anchor + R * (Vec3(0, 0, 1.5) - anchor), R}}, {BodyVelocity{}});
  EXPECT_LT(test::max_anchor_gap(*model, sim->joint_records()), 1e-12);
  for (int n = 0; n < 20; ++n) sim->step();
  EXPECT_LT(test::max_anchor_gap(*model, sim->joint_records()), solver_capabilities(GetParam()).joint_gap);
  // It swings back down from where it was set: about the x axis, towards −0.5 rad.
  const Mat3 A = sim->poses()[0].A;
  EXPECT_LT(std::atan2(A(2, 1), A(1, 1)), 0.45);
}

TEST_P(StateEdits, SetStateRefusesBadStatesAndKeepsTheOldOne) {
  Scene scene = cube_scene(Vec3::Zero());
  BodyDef post = test::box_body("post", Vec3(0.2, 0.2, 0.2), Vec3(3, 0, 1));
  post.fixed = true;
  scene.bodies.push_back(post);
  const auto sim = test::simulate(scene, GetParam());
  const std::vector<BodyPose> x = sim->poses();
  const std::vector<BodyVelocity> v = sim->velocities();
  const auto refused = [&](std::vector<BodyPose> poses, std::vector<BodyVelocity> velocities, const std::string& says) {
    try {
      sim->set_state(poses, velocities);
      ADD_FAILURE() << "accepted a state that should say: " << says;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    EXPECT_EQ(sim->poses()[0].p, x[0].p);
  };
  refused({x[0]}, v, "expected one of each per body (2)");
  std::vector<BodyPose> mirrored = x;
  mirrored[0].A(0, 0) = -1;
  refused(mirrored, v, "det A");
  std::vector<BodyPose> moved_post = x;
  moved_post[1].p.x() += 0.1;
  refused(moved_post, v, "bodies[1] ('post') is fixed");
  std::vector<BodyPose> overlap = x;
  overlap[0].p = Vec3(2.9, 0, 1);
  refused(overlap, v, "set_state: the new state");
  std::vector<BodyVelocity> nan = v;
  nan[0].linear.x() = std::nan("");
  refused(x, nan, "expected finite numbers");
}

TEST_P(StateEdits, AppliedForceActsForOneStepAtItsPoint) {
  const auto model = test::compiled(cube_scene(Vec3::Zero()), GetParam());
  const auto sim = make_simulator(model);
  const ModelBody& b = model->bodies[0];
  const double h = 0.01;
  const Vec3 F(0, 2, 0), x(0.25, 0, 1);  // on the +x face, pushing along y
  sim->apply_force(0, F, x);
  sim->step();
  const Vec3 P = test::linear_momentum(b, sim->velocities()[0]);
  EXPECT_LT((P - h * F).norm(), 1e-9 * F.norm());
  // Its impulse's moment about the world origin, h (x × F), is the angular momentum gained (the point
  // moves by h² F/m within the step, which the 1e-4 allows).
  const Vec3 L = test::angular_momentum(b, sim->poses()[0], sim->velocities()[0]);
  EXPECT_LT((L - h * x.cross(F)).norm(), 1e-4 * (h * x.cross(F)).norm());
  EXPECT_GT(sim->velocities()[0].angular.z(), 0.0);
  sim->step();  // the force is gone: free flight keeps P
  EXPECT_LT((test::linear_momentum(b, sim->velocities()[0]) - P).norm(), 1e-9 * P.norm());
  EXPECT_THROW(sim->apply_force(1, F, x), InputError);
  EXPECT_THROW(sim->apply_force(0, Vec3(0, std::nan(""), 0), x), InputError);
}

TEST_P(StateEdits, KinematicTargetIsReachedAndHeld) {
  AFFIX_REQUIRE(GetParam(), Feature::prescribed_motion);
  Scene scene = cube_scene(Vec3(0, 0, -9.81));
  BodyDef paddle = test::box_body("paddle", Vec3(1, 0.1, 0.1), Vec3(3, 0, 1));
  Kinematic k;
  k.velocity = Vec3(1, 0, 0);
  paddle.kinematic = k;
  scene.bodies.push_back(paddle);
  const auto sim = test::simulate(scene, GetParam());
  sim->step();
  EXPECT_LT((sim->poses()[1].p - Vec3(3.01, 0, 1)).norm(), 1e-12);  // its scene motion until told
  const BodyPose target{Vec3(3, 0.05, 1.02), rotation_about(Vec3::UnitZ(), 0.2)};
  sim->set_kinematic_target(1, target);
  for (int n = 0; n < 3; ++n) {
    sim->step();
    EXPECT_LT((sim->poses()[1].p - target.p).norm(), 1e-12) << "step " << n;
    EXPECT_LT((sim->poses()[1].A - target.A).norm(), 1e-12) << "step " << n;
  }
  EXPECT_THROW(sim->set_kinematic_target(0, target), InputError);  // the cube is dynamic
  EXPECT_THROW(sim->set_kinematic_target(1, BodyPose{target.p, 2.0 * target.A}), InputError);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, StateEdits, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
