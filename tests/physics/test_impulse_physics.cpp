// The impulse solver (Tomcin 2014) on the scenes of its paper, measured from the poses and velocities
// the Simulator interface reports, against the closed-form kinematics of each mechanism:
//   - a Peaucellier–Lipkin linkage (Fig. 3: 7 bars, 10 hinges, 9 redundant rows) swinging under
//     gravity at h = 0.03 s for 10 s: its traced point stays on the straight line the linkage draws;
//   - the 50 kg rod and 7.5 t block of Fig. 1d at h = 0.25 s for 20 s: finite, energy bounded by the
//     initial energy, every joint closed to ε_P after every step;
//   - A's symbolic analysis is done once per kinematic graph, and a step that runs out of joint
//     corrections counts in hit_iteration_cap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "affix/error.hpp"
#include "affix/scene/generate/peaucellier.hpp"
#include "affix/scene/generate/rod_block.hpp"
#include "affix/solvers/impulse/impulse_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

TEST(ImpulsePhysics, PeaucellierLinkageTracesItsStraightLineToAMicrometreOverTenSeconds) {
  // Released at rest at θ = 20°, it swings through the symmetric pose towards −20° and back (Fig. 3
  // swings it near the fold at 30°); ε_P = 1e-9 m and 500 iterations as in Fig. 3.
  const Scene scene = generate::peaucellier({20.0});
  ASSERT_EQ(scene.bodies[5].name, "PA");
  const auto model = test::compiled(scene, "impulse");
  ImpulseSimulator sim(model);
  double worst = 0.0, lo = 1e9, hi = -1e9;
  int capped = 0, iterations = 0;
  const int steps = static_cast<int>(std::lround(10.0 / 0.03));
  for (int n = 1; n <= steps; ++n) {
    const StepStats stats = sim.step();
    capped += stats.hit_iteration_cap;
    iterations = std::max(iterations, stats.iterations);
    const Vec3 p = test::peaucellier_traced_point(*model, sim.poses());
    // On the line: z = −1.5 in the plane y = 0.
    worst = std::max({worst, std::abs(p.z() - generate::kPeaucellierLineZ), std::abs(p.y())});
    lo = std::min(lo, p.x()), hi = std::max(hi, p.x());
    ASSERT_LT(worst, 1e-6) << "step " << n;
  }
  std::printf("Peaucellier: traced point off its line by at most %.2e m; x in [%.3f, %.3f] m; at most %d "
              "iterations a step; %d capped steps; %d symbolic analyses\n",
              worst, lo, hi, iterations, capped, sim.symbolic_analyses());
  // It swung through the symmetric pose to the other side: x = 1.5 tan θ from 0.546 to about −0.546.
  EXPECT_GT(hi, 0.5);
  EXPECT_LT(lo, -0.4);
  EXPECT_EQ(capped, 0);
  EXPECT_EQ(sim.symbolic_analyses(), 1);
}

TEST(ImpulsePhysics, RodAndHeavyBlockStayClosedAndBoundedAtAQuarterSecondStep) {
  // Fig. 1d as `affix generate rod-block` writes it: 50 kg rod, 7.5 t block, h = 0.25 s, 20 s. Energy
  // E = T + V starts at 0 (at rest, centres of mass at z = 0); velocity Verlet (the generator's) keeps it
  // at or below 0 up to 1e-3 of m g ℓ, symplectic Euler within its first-order error.
  const double scale = 9.81 * (50 * 2.0 + 7500 * 4.5);  // m g ℓ: the energy of a quarter swing
  for (const char* integration : {"velocity_verlet", "symplectic_euler"}) {
    SCOPED_TRACE(integration);
    Scene scene = generate::rod_block({});
    scene.settings.solver_settings["impulse"]["integration"] = integration;
    const auto model = test::compiled(scene, "impulse");
    const auto sim = make_simulator(model);
    const ImpulseSettings settings;  // ε_P, the default
    double highest = -1e300, worst_gap = 0.0, lowest = 0.0, far_left = 0.0;
    for (int n = 1; n <= 80; ++n) {  // 20 s
      const StepStats stats = sim->step();
      const double energy = stats.kinetic_energy + stats.potential_energy;
      ASSERT_TRUE(std::isfinite(energy)) << "step " << n;
      ASSERT_LT(stats.max_joint_error, settings.position_tolerance) << "step " << n;
      ASSERT_FALSE(stats.hit_iteration_cap) << "step " << n;
      highest = std::max(highest, energy);
      worst_gap = std::max(worst_gap, test::max_anchor_gap(*model, sim->joint_records()));
      lowest = std::min(lowest, sim->poses()[1].p.z());
      far_left = std::min(far_left, sim->poses()[1].p.x());
    }
    std::printf("rod and block, h = 0.25 s, %s: highest energy %.3e J (m g l = %.3e J), anchor gap %.2e m, "
                "block down to z = %.2f m and out to x = %.2f m\n", integration, highest, scale, worst_gap, lowest,
                far_left);
    EXPECT_LT(worst_gap, 2 * settings.position_tolerance);
    EXPECT_LT(highest, (integration[0] == 'v' ? 1e-3 : 0.3) * scale) << "energy grew";
    EXPECT_LT(lowest, -4.0) << "it did not swing down";
    EXPECT_LT(far_left, -4.0) << "it did not swing up the other side";
  }
}

TEST(ImpulsePhysics, AKinematicBodyDragsItsPendulumAndFollowsItsTwistExactly) {
  // A hub turning at 2 rad/s about z and drifting at 0.3 m/s along x, a bob on a ball joint at its rim:
  // the hub takes no impulse and is where its twist puts it; the bob's anchor stays on the hub's rim.
  BodyDef hub = test::box_body("hub", Vec3(0.4, 0.4, 0.1), Vec3(0, 0, 1));
  hub.kinematic = Kinematic{Vec3(0.3, 0, 0), Vec3(0, 0, 2), {}};
  BodyDef bob = test::box_body("bob", Vec3(0.1, 0.1, 0.3), Vec3(0.2, 0, 0.8));
  Scene scene = test::scene_with({hub, bob}, 0.01, std::nullopt);
  scene.settings.solver = "impulse";
  const Vec3 anchor(0.2, 0, 0.95);
  test::add_joint(scene, JointType::ball, "bob", "hub").anchor = anchor;
  const auto model = test::compiled(scene, "impulse");
  const auto sim = make_simulator(model);
  double worst_gap = 0.0, worst_hub = 0.0, swing = 0.0;
  for (int n = 1; n <= 200; ++n) {
    sim->step();
    const double t = n * 0.01;
    const std::vector<BodyPose> poses = sim->poses();
    const Mat3 R = Eigen::AngleAxisd(2 * t, Vec3::UnitZ()).toRotationMatrix();
    worst_hub = std::max({worst_hub, (poses[0].p - Vec3(0.3 * t, 0, 1)).norm(), (poses[0].A - R).norm()});
    // The anchor as the hub carries it, and as the bob carries it.
    const Vec3 on_hub = poses[0].A * (anchor - Vec3(0, 0, 1)) + poses[0].p;
    const Vec3 on_bob = poses[1].A * (anchor - Vec3(0.2, 0, 0.8)) + poses[1].p;
    worst_gap = std::max(worst_gap, (on_hub - on_bob).norm());
    swing = std::max(swing, (poses[1].p - on_hub - Vec3(0, 0, -0.15)).norm());
  }
  std::printf("kinematic hub: pose off its twist by %.2e, anchor gap %.2e m, bob swung %.3f m\n", worst_hub,
              worst_gap, swing);
  EXPECT_LT(worst_hub, 1e-12);
  EXPECT_LT(worst_gap, solver_capabilities("impulse").joint_gap);
  EXPECT_GT(swing, 0.05) << "the bob was not dragged";
}

}  // namespace
}  // namespace affix
