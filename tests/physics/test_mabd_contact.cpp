// Contact in the mabd solver by implicit penalty (He 2026 §6, penalty_contact.hpp), against closed forms
// written here:
//   - a box dropped flat on the ground comes to rest with its four bottom vertices at the depth where
//     their penalty carries its weight, δ = m g / (4k), k = 100 m / h² (δ = g h² / 400), and the
//     reported max_penetration is that depth; a stiffer settings.mabd.contact_stiffness sinks it less;
//   - a ball-jointed chain pinned at one end falls onto the ground: every joint stays within the
//     solver's declared gap every step, no vertex sinks deeper than a penalty holding the chain's whole
//     potential energy would let it (frictionless, it keeps sliding, so no rest pose is checked).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;

TEST(MabdContact, BoxRestsOnTheGroundAtTheClosedFormPenaltyDepth) {
  const double h = 0.01, size = 0.2;
  for (const std::optional<double> stiffness : {std::optional<double>(), std::optional<double>(1e7)}) {
    Scene scene = test::scene_with({test::box_body("box", Vec3::Constant(size), Vec3(0, 0, size / 2 + 0.02))}, h);
    scene.settings.solver = "mabd";
    if (stiffness) scene.settings.solver_settings["mabd"] = {{"contact_stiffness", *stiffness}};
    const auto model = test::compiled(scene, "mabd");
    const auto sim = make_simulator(model);
    const double m = model->bodies[0].mass;
    const double k = stiffness.value_or(100.0 * m / (h * h));
    const double depth = m * kG / (4 * k);
    StepStats stats;
    double deepest = 0.0;
    for (int n = 0; n < 150; ++n) {
      stats = sim->step();
      ASSERT_TRUE(std::isfinite(stats.max_penetration));
      deepest = std::max(deepest, stats.max_penetration);
    }
    std::printf("box at rest (k = %.3g N/m): penetration %.4e m, closed form %.4e m, deepest %.4e m\n", k,
                stats.max_penetration, depth, deepest);
    EXPECT_NEAR(stats.max_penetration, depth, 0.02 * depth);
    EXPECT_NEAR(-test::lowest_vertex(model->bodies[0], sim->poses()[0]), depth, 0.02 * depth);
    EXPECT_EQ(stats.active_contacts, 4);
    EXPECT_LT(sim->velocities()[0].linear.norm(), 1e-3);
    EXPECT_LT(deepest, 20 * depth);  // the landing (0.6 m/s) is caught within a few rest depths
  }
}

TEST(MabdContact, PinnedChainFallsOnTheGroundWithItsJointsKept) {
  const double h = 0.01, link = 0.2, z = 0.3;
  std::vector<BodyDef> bodies;
  for (int i = 0; i < 6; ++i)
    bodies.push_back(test::box_body("l" + std::to_string(i), Vec3(link, 0.05, 0.05), Vec3(link * (i + 0.5), 0, z)));
  Scene scene = test::scene_with(bodies, h);
  scene.settings.solver = "mabd";
  test::add_joint(scene, JointType::ball, "l0", "world").anchor = Vec3(0, 0, z);
  for (int i = 1; i < 6; ++i)
    test::add_joint(scene, JointType::ball, "l" + std::to_string(i - 1), "l" + std::to_string(i)).anchor =
        Vec3(link * i, 0, z);
  const auto model = test::compiled(scene, "mabd");
  const auto sim = make_simulator(model);
  const double gap = solver_capabilities("mabd").joint_gap;
  // Energy bound on the ground's penalty: implicit Euler dissipates, so ½ k δ² of one vertex cannot
  // exceed the chain's whole potential energy above the ground, U = Σ m g z (k = 100 m / h² of a link).
  const double m = model->bodies[0].mass, k = 100.0 * m / (h * h);
  const double ground_bound = std::sqrt(2 * 6 * m * kG * z / k);
  double lowest = 0.0;
  int touching = 0;
  for (int n = 0; n < 150; ++n) {
    const StepStats stats = sim->step();
    ASSERT_LT(stats.max_joint_error, gap) << "step " << n + 1;
    ASSERT_LT(test::max_anchor_gap(*model, sim->joint_records()), gap) << "step " << n + 1;
    touching += stats.active_contacts > 0;
    const std::vector<BodyPose> poses = sim->poses();
    double now = 0.0;  // this step's deepest vertex below the ground, as stats.csv must report it
    for (int i = 0; i < 6; ++i) now = std::min(now, test::lowest_vertex(model->bodies[i], poses[i]));
    ASSERT_GE(stats.max_penetration, -now - 1e-12) << "step " << n + 1;  // body–body shells count too
    lowest = std::min(lowest, now);
  }
  std::printf("chain on the ground: lowest vertex %.3e m (energy bound %.3e m), %d touching steps\n", lowest,
              ground_bound, touching);
  EXPECT_GT(touching, 50);  // it did land
  EXPECT_GT(lowest, -ground_bound);
}

}  // namespace
}  // namespace affix
