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

// A heavy ball strikes the tip of an arm hinged to the world with a ±2° range, in zero gravity. At the
// step of the impact the limit is inactive in the joint correction (the arm is at rest at 0°); the
// contact phase then turns the arm at the ball's speed, 5 m/s at the tip (2.9° per step of 10 ms), past
// its bound. The limit must hold there too: the arm stops at 2° at every step's end, and the ball is
// stopped by the arm on its stop instead of passing through.
TEST(ImpulseContact, ABallStrikingAHingedArmNeverTurnsItPastItsLimit) {
  const double r = 0.1, bound = 2.0 * M_PI / 180.0;
  BodyDef arm = test::box_body("arm", Vec3(1.0, 0.1, 0.1), {0.5, 0, 0});
  arm.mass = 1.0;
  BodyDef ball = test::sphere_body("ball", r, {0.9, 0, 0.05 + r + 0.02});
  ball.mass = 10.0;
  ball.velocity = Vec3(0, 0, -5.0);
  Scene scene = test::scene_with({arm, ball}, 0.01, std::nullopt);
  scene.settings.gravity = Vec3::Zero();
  JointDef& hinge = test::add_joint(scene, JointType::hinge, "arm", "world");
  hinge.anchor = Vec3::Zero();
  hinge.axis = Vec3(0, 1, 0);
  hinge.angle_limits = AngleRange{-bound, bound};
  const auto sim = test::simulate(scene, "impulse");
  double largest = 0.0, lowest_ball = 1.0;
  for (int n = 1; n <= 30; ++n) {
    sim->step();
    const std::vector<BodyPose> poses = sim->poses();
    // The arm turns about +y: its x axis goes to (cos θ, 0, −sin θ).
    const double theta = std::atan2(-poses[0].A(2, 0), poses[0].A(0, 0));
    largest = std::max(largest, std::abs(theta));
    EXPECT_LE(std::abs(theta), bound + 1e-6) << "step " << n;  // ε_P, the position tolerance
    // The ball centre's height over the arm's top face, whose normal is (sin θ, 0, cos θ) at 0.05 m.
    const Vec3 c = poses[1].p;
    lowest_ball = std::min(lowest_ball, std::sin(theta) * c.x() + std::cos(theta) * c.z() - 0.05);
  }
  std::printf("arm: largest angle %.6f deg (bound %.1f); ball centre at least %.4f m above the arm's face\n",
              largest / M_PI * 180.0, bound / M_PI * 180.0, lowest_ball);
  EXPECT_GT(largest, 0.9 * bound) << "the ball did not reach the arm";
  EXPECT_GT(lowest_ball, r - 0.01) << "the ball passed into the arm";
}

}  // namespace
}  // namespace affix
