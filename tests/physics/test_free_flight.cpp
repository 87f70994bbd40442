// Torque-free motion in zero gravity: momentum conservation against the exact answer (constant), on
// every solver.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

class FreeFlight : public test::SolverTest {};

struct Drift {
  double linear;   ///< max ‖P(t) − P(0)‖ / ‖P(0)‖
  double angular;  ///< ‖L(1 s) − L(0)‖ / ‖L(0)‖
};

/// A 1 × 0.6 × 0.3 box spinning at 2 rad/s about a non-principal axis, drifting sideways, for 1 s.
Drift spinning_box_drift(const std::string& solver, Integrator integrator) {
  BodyDef box = test::box_body("box", Vec3(1.0, 0.6, 0.3), Vec3(0.3, -0.2, 0.5));
  box.rotation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 0).normalized()));
  box.angular_velocity = 2.0 * Vec3(1, 1, 1).normalized();
  box.velocity = Vec3(0.2, 0.1, -0.3);
  Scene scene = test::scene_with({box}, 0.01, std::nullopt);
  scene.settings.gravity.setZero();
  scene.settings.integrator = integrator;
  scene.settings.solver_settings["ipc"]["tolerance"] = 1e-7;
  const auto model = test::compiled(scene, solver);
  const auto sim = make_simulator(model);
  const ModelBody& body = model->bodies[0];
  const Vec3 P0 = test::linear_momentum(body, sim->velocities()[0]);
  const Vec3 L0 = test::angular_momentum(body, sim->poses()[0], sim->velocities()[0]);
  Drift drift{0.0, 0.0};
  for (int n = 0; n < 100; ++n) {
    sim->step();
    const BodyPose x = sim->poses()[0];
    const BodyVelocity v = sim->velocities()[0];
    drift.linear = std::max(drift.linear, (test::linear_momentum(body, v) - P0).norm() / P0.norm());
    drift.angular = (test::angular_momentum(body, x, v) - L0).norm() / L0.norm();
  }
  return drift;
}

TEST_P(FreeFlight, Bdf2KeepsLinearMomentumExactlyAndAngularMomentumWithinOnePercent) {
  AFFIX_REQUIRE(GetParam(), Feature::bdf2);
  const Drift d = spinning_box_drift(GetParam(), Integrator::bdf2);
  std::printf("BDF-2: linear momentum drift %.3e, angular momentum drift %.3e over 1 s\n", d.linear, d.angular);
  EXPECT_LT(d.linear, 1e-9);
  EXPECT_LT(d.angular, 0.01);
}

TEST_P(FreeFlight, ImplicitEulerKeepsLinearMomentumButBleedsAngularMomentum) {
  AFFIX_REQUIRE(GetParam(), Feature::bdf2);  // the bleeding is measured against BDF-2
  const Drift ie = spinning_box_drift(GetParam(), Integrator::implicit_euler);
  const Drift bdf2 = spinning_box_drift(GetParam(), Integrator::bdf2);
  std::printf("implicit Euler: linear momentum drift %.3e, angular momentum drift %.3e over 1 s "
              "(100·(ωh)² = %.3e)\n", ie.linear, ie.angular, 100 * std::pow(2 * 0.01, 2));
  EXPECT_LT(ie.linear, 1e-9);
  EXPECT_GT(ie.angular, bdf2.angular);
}

TEST_P(FreeFlight, ConstantForceAndTorqueGiveClosedFormVelocities) {
  // A sphere (isotropic inertia I = 2/5 m r² up to meshing) pushed by F and twisted by τ for 0.5 s.
  BodyDef ball;
  ball.name = "ball";
  ball.shape = SphereShape{0.5, 48};
  Scene scene = test::scene_with({ball}, 0.005, std::nullopt);
  scene.settings.gravity.setZero();
  scene.settings.solver_settings["ipc"]["tolerance"] = 1e-8;
  ForceDef push;
  push.body = "ball";
  push.body_index = 0;
  push.force = Vec3(10, 0, 0);
  push.torque = Vec3(0, 0, 2);
  push.end = 0.5;
  scene.forces = {push};
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const ModelBody& body = model->bodies[0];
  for (int n = 0; n < 200; ++n) sim->step();  // 1 s: the load acts for the first half
  const BodyPose x = sim->poses()[0];
  const BodyVelocity v = sim->velocities()[0];
  const double expected_v = 10 * 0.5 / body.mass;
  EXPECT_NEAR(v.linear.x(), expected_v, 1e-3 * expected_v);
  // The torque's impulse τ·t is the angular momentum gained; the ball moves along x through the
  // origin, so p × P adds nothing about the z axis.
  EXPECT_NEAR(test::angular_momentum(body, x, v).z(), 2 * 0.5, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, FreeFlight, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
