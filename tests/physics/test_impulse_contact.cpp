// The impulse solver's contacts (Tomcin 2014 §7, solvers/impulse/impulse_contacts.cpp) against closed
// forms: a bounce to e² of the drop height, a resting box carrying its weight, and a contact on an
// articulated body coupled to the whole mechanism (a light sphere welded under a heavy box bounces
// the pair as one body: uncoupled, the sphere alone would be stopped and the box would not rebound).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "affix/scene/generate/scissor_lift.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;

using test::sphere_body;

TEST(ImpulseContact, SphereBouncesToRestitutionSquaredTimesItsDropHeight) {
  const double r = 0.1, H = 1.0;
  for (const double e : {0.5, 0.8}) {
    Scene scene = test::scene_with({sphere_body("ball", r, {0, 0, r + H})}, 1e-3);
    scene.settings.solver_settings["impulse"]["restitution"] = e;
    const double apex = test::apex_after_bounce(scene, "impulse", 0, 3000) - r;
    std::printf("e = %.1f: apex %.4f m, e^2 H = %.4f m\n", e, apex, e * e * H);
    // The impact is found up to one step early (v h = 4.4 mm at h = 1 ms), which changes the height.
    EXPECT_NEAR(apex, e * e * H, 0.01);
  }
}

TEST(ImpulseContact, BoxOnTheGroundRestsAtHalfItsHeightCarryingItsWeight) {
  const double size = 0.4;
  const Scene scene = test::scene_with({test::box_body("box", Vec3::Constant(size), {0, 0, 0.5})}, 0.01);
  const auto model = test::compiled(scene, "impulse");
  const auto sim = make_simulator(model);
  StepStats stats;
  for (int n = 0; n < 150; ++n) stats = sim->step();
  EXPECT_NEAR(sim->poses()[0].p.z(), size / 2, 1e-3);
  EXPECT_LT(sim->velocities()[0].linear.norm(), 1e-3);
  EXPECT_LT(stats.max_penetration, 1e-4);
  // The contacts of the last step carry the weight: Σ p_n / h = m g (the gravity kick of one step).
  double force = 0.0;
  for (const ContactRecord& c : sim->contact_records()) {
    EXPECT_EQ(c.body2, -1);
    EXPECT_NEAR(c.normal.z(), 1.0, 1e-12);
    force += c.force;
  }
  std::printf("resting box: z %.6f m, contact force %.3f N, weight %.3f N\n", sim->poses()[0].p.z(), force,
              model->bodies[0].mass * kG);
  EXPECT_NEAR(force, model->bodies[0].mass * kG, 0.02 * model->bodies[0].mass * kG);
}

TEST(ImpulseContact, ALightSphereWeldedUnderAHeavyBoxBouncesThePairAsOneBody) {
  const double r = 0.05, H = 0.5, e = 0.5;
  const double apex = test::welded_pair_bounce("impulse", r, H, e);
  std::printf("welded pair, e = %.1f: the box rises to %.4f m, e^2 H = %.4f m\n", e, apex, e * e * H);
  EXPECT_NEAR(apex, e * e * H, 0.02);
}

TEST(ImpulseContact, TheScissorLiftDroppedOnItsBaseLandsWithoutFolding) {
  // Tomcin 2014 Fig. 6a: 10 segments locked open, the base 0.4 m above the ground. Its contacts act on
  // the base, coupled to the 32 hinges (160 rows, loops with redundant rows) above it.
  const Scene scene = generate::scissor_lift({});
  const auto model = test::compiled(scene, "impulse");
  const auto sim = make_simulator(model);
  const int base = *scene.body_index("base"), platform = *scene.body_index("platform");
  const double height = sim->poses()[platform].p.z() - sim->poses()[base].p.z();
  double worst_fold = 0.0, worst_gap = 0.0, worst_penetration = 0.0;
  for (int n = 0; n < 200; ++n) {  // 2 s at h = 0.01 s
    const StepStats stats = sim->step();
    ASSERT_FALSE(stats.hit_iteration_cap) << "step " << n;
    worst_penetration = std::max(worst_penetration, stats.max_penetration);
    const std::vector<BodyPose> poses = sim->poses();
    worst_fold = std::max(worst_fold, std::abs(poses[platform].p.z() - poses[base].p.z() - height));
    worst_gap = std::max(worst_gap, test::max_anchor_gap(*model, sim->joint_records()));
  }
  std::printf("scissor lift: height change %.2e m, largest anchor gap %.2e m, deepest penetration %.2e m; base at "
              "z = %.4f m\n", worst_fold, worst_gap, worst_penetration, sim->poses()[base].p.z());
  EXPECT_NEAR(sim->poses()[base].p.z(), 0.05, 1e-3);  // landed: the base's centre at half its height
  EXPECT_LT(worst_fold, 1e-3);   // folding would lower the platform by metres
  EXPECT_LT(worst_gap, 1e-5);
  EXPECT_LT(worst_penetration, 1e-3);
}

}  // namespace
}  // namespace affix
