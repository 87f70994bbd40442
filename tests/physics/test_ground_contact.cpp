// Bodies on the ground against closed forms: rest height, friction angle, sliding acceleration, on
// every solver that has what each test needs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "affix/solvers/ipc/ipc_settings.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

constexpr double kG = 9.81;

class GroundContact : public test::SolverTest {};

TEST_P(GroundContact, DroppedBoxRestsAtHalfHeightAndNeverPenetrates) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::intersection_free, Feature::bdf2);
  const double size = 0.5;
  Scene scene = test::scene_with({test::box_body("box", Vec3::Constant(size), Vec3(0, 0, 1.0))}, 0.01);
  scene.settings.integrator = Integrator::bdf2;
  const auto model = test::compiled(scene, GetParam());
  const auto sim = make_simulator(model);
  const ModelBody& body = model->bodies[0];
  const double dhat = read_ipc_settings(scene.settings, scene.file).dhat;
  for (int n = 0; n < 300; ++n) {
    sim->step();
    ASSERT_GT(test::lowest_vertex(body, sim->poses()[0]), 0.0) << "step " << n + 1;
  }
  const double z = sim->poses()[0].p.z();
  EXPECT_GT(z, size / 2);
  EXPECT_LT(z, size / 2 + dhat);
  EXPECT_LT(sim->velocities()[0].linear.norm(), 1e-3);
}

struct SlideResult {
  double start_x = 0.0;
  std::vector<double> x;  ///< down-slope position of the origin after each step
};

/// A 0.4 m box on the ground with gravity tilted by θ about y (tan θ = 0.5), starting at rest a
/// fraction of d̂ above the ground so that there is no landing transient to speak of.
SlideResult slide(const std::string& solver, double mu, int steps, double dt) {
  const double theta = std::atan(0.5);
  BodyDef box = test::box_body("box", Vec3::Constant(0.4), Vec3(0, 0, 0.2 + 5e-4));
  box.friction = mu;
  Scene scene = test::scene_with({box}, dt, Ground{0.0, mu});
  scene.settings.gravity = kG * Vec3(std::sin(theta), 0, -std::cos(theta));
  scene.settings.solver_settings["ipc"]["tolerance"] = 1e-6;
  const auto sim = test::simulate(scene, solver);
  SlideResult r;
  r.start_x = sim->poses()[0].p.x();
  for (int n = 0; n < steps; ++n) {
    sim->step();
    r.x.push_back(sim->poses()[0].p.x());
  }
  return r;
}

TEST_P(GroundContact, BoxStickingAboveTheFrictionAngleCreepsLessThanEpsvTimesT) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::friction);
  const double dt = 0.01, epsv = 1e-3;
  const SlideResult r = slide(GetParam(), 0.6, 100, dt);
  const double creep = r.x.back() - r.start_x;
  std::printf("mu = 0.6, tan(theta) = 0.5: creep %.3e m over 1 s (epsv * t = %.1e m)\n", creep, epsv * 1.0);
  EXPECT_LT(std::abs(creep), epsv * 1.0);
}

TEST_P(GroundContact, BoxSlidingBelowTheFrictionAngleHasCoulombAcceleration) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::friction);
  const double dt = 0.01, mu = 0.3, theta = std::atan(0.5);
  const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
  const SlideResult r = slide(GetParam(), mu, 100, dt);
  // Second difference of the position over [0.4 s, 1 s], well after the start.
  const double t0 = 0.4, t1 = 0.7, t2 = 1.0;
  const auto x_at = [&](double t) { return r.x[static_cast<int>(std::lround(t / dt)) - 1]; };
  const double a = (x_at(t2) - 2 * x_at(t1) + x_at(t0)) / ((t1 - t0) * (t1 - t0));
  std::printf("mu = 0.3: acceleration %.4f m/s^2, Coulomb g(sin - mu cos) = %.4f m/s^2\n", a, expected);
  EXPECT_NEAR(a, expected, 0.05 * expected);
}

/// Mechanical energy (kinetic + gravitational) left after a box falls 0.5 m and bounces, at 1 s.
double energy_after_bounce(const std::string& solver, Integrator integrator) {
  Scene scene = test::scene_with({test::box_body("box", Vec3::Constant(0.4), Vec3(0, 0, 0.7))}, 0.01);
  scene.settings.integrator = integrator;
  const auto model = test::compiled(scene, solver);
  const auto sim = make_simulator(model);
  StepStats stats;
  for (int n = 0; n < 100; ++n) stats = sim->step();
  return stats.kinetic_energy + model->bodies[0].mass * kG * (sim->poses()[0].p.z() - 0.2);
}

TEST_P(GroundContact, Bdf2KeepsMoreEnergyThroughABounceThanImplicitEuler) {
  AFFIX_REQUIRE(GetParam(), Feature::ground_contact, Feature::bdf2);
  const double bdf2 = energy_after_bounce(GetParam(), Integrator::bdf2);
  const double euler = energy_after_bounce(GetParam(), Integrator::implicit_euler);
  std::printf("energy after bounce: BDF-2 %.3f J, implicit Euler %.3f J (dropped from %.3f J)\n", bdf2,
              euler, 64.0 * kG * 0.5);
  EXPECT_GT(bdf2, euler);
  EXPECT_LT(bdf2, 64.0 * kG * 0.5);  // and no energy is created
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, GroundContact, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
