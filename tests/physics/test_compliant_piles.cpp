// Boxes that settle under the compliant solver at the steps a game or operator-training scene uses,
// h = 1/60, 0.05 and 0.1 s, against the closed form of a resting stack: 0.4 m boxes rest with their
// centres at 0.2 m and 0.6 m, the kinetic energy goes to ~0, the total energy never rises above its
// start (nothing in these scenes adds energy), and no box overlaps another or the ground at the end.
// Before persistence, speculative contacts and the overlap rate (compliant_unilateral.cpp) two stacked
// boxes chattered every two steps at h = 0.05 and a box fell into the one below at h = 0.1; with one
// speculative point per pair instead of the manifold the top box landed on it, turned about it, and
// rested 0.3° tilted and 1 mm high at h = 0.1.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kSize = 0.4, kMass = 32.0;

BodyDef box(const std::string& name, const Vec3& position) {
  BodyDef b = test::box_body(name, Vec3::Constant(kSize), position);
  b.mass = kMass;
  return b;
}

struct Settled {
  std::vector<double> height;      // each box's centre at the end (m)
  double energy0 = 0.0;            // at t = 0, at rest
  double max_energy = -INFINITY;   // over the run (kinetic + potential of stats)
  double last_kinetic = 0.0;       // the largest kinetic energy over the last second
  double last_overlap = 0.0;       // the deepest overlap over the last second
  double sweeps = 0.0;             // PGS sweeps per step
};

Settled settle(std::vector<BodyDef> bodies, double h, double duration) {
  Scene scene = test::scene_with(std::move(bodies), h);
  scene.ground->friction = 0.5;
  const auto model = test::compiled(scene, "compliant");
  const auto sim = make_simulator(model);
  Settled s;
  for (const ModelBody& b : model->bodies) s.energy0 += b.mass * 9.81 * (b.position + b.rotation * b.center_of_mass).z();
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int n = 0; n < steps; ++n) {
    const StepStats st = sim->step();
    s.max_energy = std::max(s.max_energy, st.kinetic_energy + st.potential_energy);
    s.sweeps += st.iterations;
    if (n >= steps - static_cast<int>(std::lround(1.0 / h))) {
      s.last_kinetic = std::max(s.last_kinetic, st.kinetic_energy);
      s.last_overlap = std::max(s.last_overlap, st.max_penetration);
    }
  }
  s.sweeps /= steps;
  for (const BodyPose& p : sim->poses()) s.height.push_back(p.p.z());
  return s;
}

class CompliantPiles : public ::testing::TestWithParam<double> {};

TEST_P(CompliantPiles, TwoStackedBoxesSettleAtTheirRestHeights) {
  const double h = GetParam();
  // hostile15/stack2.json: the top box 1 cm above the lower one and 0.1 m off its centre.
  const Settled s = settle({box("a", {0, 0, 0.21}), box("b", {0.1, 0, 0.62})}, h, 6.0);
  std::printf("two boxes at h = %.4f: centres %.5f, %.5f m; energy %.2f J at rest, at most %.2f J; last second KE "
              "<= %.2e J, overlap <= %.2e m; %.1f PGS sweeps per step\n",
              h, s.height[0], s.height[1], s.energy0, s.max_energy, s.last_kinetic, s.last_overlap, s.sweeps);
  EXPECT_NEAR(s.height[0], 0.5 * kSize, 1e-3);
  EXPECT_NEAR(s.height[1], 1.5 * kSize, 1e-3);
  EXPECT_LT(s.last_kinetic, 1e-6);
  EXPECT_LE(s.max_energy, s.energy0 + 1e-6);
  EXPECT_LT(s.last_overlap, 1e-3);
}

TEST_P(CompliantPiles, ThreeBoxPyramidSettlesAtItsRestHeights) {
  const double h = GetParam();
  // Two boxes 5 cm apart on the ground and one bridging them from 1 cm above.
  const Settled s = settle({box("a", {-0.225, 0, 0.201}), box("b", {0.225, 0, 0.201}), box("c", {0, 0, 0.61})}, h, 6.0);
  std::printf("pyramid at h = %.4f: centres %.5f, %.5f, %.5f m; energy %.2f J at rest, at most %.2f J; last second "
              "KE <= %.2e J, overlap <= %.2e m; %.1f PGS sweeps per step\n",
              h, s.height[0], s.height[1], s.height[2], s.energy0, s.max_energy, s.last_kinetic, s.last_overlap,
              s.sweeps);
  EXPECT_NEAR(s.height[0], 0.5 * kSize, 1e-3);
  EXPECT_NEAR(s.height[1], 0.5 * kSize, 1e-3);
  EXPECT_NEAR(s.height[2], 1.5 * kSize, 1e-3);
  EXPECT_LT(s.last_kinetic, 1e-6);
  EXPECT_LE(s.max_energy, s.energy0 + 1e-6);
  EXPECT_LT(s.last_overlap, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, CompliantPiles, ::testing::Values(1.0 / 60.0, 0.05, 0.1), [](const auto& info) {
  return "h" + std::to_string(static_cast<int>(std::lround(1000 * info.param))) + "ms";
});

}  // namespace
}  // namespace affix
