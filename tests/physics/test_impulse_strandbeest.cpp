// Tomcin 2014 Fig. 6b, the Strandbeest (scene/generate/strandbeest.hpp) on the impulse solver: the
// leg's geometry against Jansen's holy numbers, and the 50-leg machine dropped 0.4 m onto the ground,
// every foot measured against Jansen's linkage at the crank angle the solver reached (a folded or
// stretched leg leaves that closed form by centimetres).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "affix/scene/generate/strandbeest.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(ImpulseStrandbeest, JansensLegHasTheHolyNumbersAndItsFootIsLowestAtEveryCrankAngle) {
  for (int step = 0; step < 72; ++step) {
    const double theta = 2.0 * kPi * step / 72.0;
    const generate::JansenLeg leg = generate::jansen_leg(theta);
    const auto expect_length = [&](const Vec2& p, const Vec2& q, double cm, const char* bar) {
      EXPECT_NEAR((p - q).norm(), 0.01 * cm, 1e-12) << bar << " at θ = " << theta;
    };
    EXPECT_NEAR(leg.pivot.x(), -0.38, 1e-15);  // a
    EXPECT_NEAR(leg.pivot.y(), -0.078, 1e-15);  // l
    expect_length(leg.pin, Vec2::Zero(), 15.0, "m");
    expect_length(leg.pivot, leg.upper, 41.5, "b");
    expect_length(leg.pivot, leg.lower, 39.3, "c");
    expect_length(leg.pivot, leg.back, 40.1, "d");
    expect_length(leg.upper, leg.back, 55.8, "e");
    expect_length(leg.back, leg.knee, 39.4, "f");
    expect_length(leg.lower, leg.knee, 36.7, "g");
    expect_length(leg.knee, leg.foot, 65.7, "h");
    expect_length(leg.lower, leg.foot, 49.0, "i");
    expect_length(leg.pin, leg.upper, 50.0, "j");
    expect_length(leg.pin, leg.lower, 61.9, "k");
    // Jansen's branch: the upper joint above the pivot, the back joint behind it, the foot below all.
    EXPECT_GT(leg.upper.y(), leg.pivot.y());
    EXPECT_LT(leg.back.x(), leg.pivot.x());
    for (const Vec2& p : {leg.pivot, leg.pin, leg.upper, leg.lower, leg.back, leg.knee}) EXPECT_LT(leg.foot.y(), p.y());
    // His foot path: within 0.69 … 0.92 m below the axle (the flat stride at the bottom).
    EXPECT_GT(leg.foot.y(), -0.92);
    EXPECT_LT(leg.foot.y(), -0.69);
  }
}

/// Where generate::strandbeest puts leg q: its crank angle at release and its mirror sign.
struct LegLayout {
  double theta0, sign;
};
LegLayout layout(int q) {
  const double phi = 2.0 * kPi / 3.0 * static_cast<double>((q / 2) % 3);
  return q % 2 == 1 ? LegLayout{kPi - phi, -1.0} : LegLayout{phi, 1.0};
}

/// Drops the machine (1 s at h = 0.01 s) and checks, after every step, each foot against Jansen's
/// linkage at the crank angle reached; `tag` prefixes the recorded properties.
void expect_lands_on_jansens_linkage(int legs, double load, const std::string& tag) {
  const Scene scene = generate::strandbeest({legs, load});
  const auto model = test::compiled(scene, "impulse");
  const auto sim = make_simulator(model);
  const int frame = *scene.body_index("frame"), crank = *scene.body_index("crank");
  // The axle sits 0.025 m above the frame's origin; each foot is the ghi triangle's third corner.
  const Vec3 axle_in_frame(0.0, 0.0, 0.025);
  std::vector<int> foot_body(legs);
  std::vector<Vec3> foot_local(legs);
  std::vector<double> leg_y(legs);
  const std::vector<BodyPose> start = sim->poses();
  const Vec3 axle0 = start[frame].p + start[frame].A * axle_in_frame;
  for (int q = 0; q < legs; ++q) {
    foot_body[q] = *scene.body_index("leg" + std::to_string(q) + "_ghi");
    const BodyPose& pose = start[foot_body[q]];
    leg_y[q] = pose.p.y();
    const Vec2 foot = generate::jansen_leg(layout(q).theta0).foot;
    const Vec3 world = axle0 + Vec3(layout(q).sign * foot.x(), leg_y[q], foot.y());
    foot_local[q] = pose.A.transpose() * (world - pose.p);
  }
  const Mat3 crank_in_frame0 = start[frame].A.transpose() * start[crank].A;
  double lowest0 = 1e300;
  for (int q = 0; q < legs; ++q) lowest0 = std::min(lowest0, (start[foot_body[q]].p + start[foot_body[q]].A * foot_local[q]).z());
  EXPECT_NEAR(lowest0, 0.4, 1e-9);  // released 0.4 m above the ground

  double worst_joint_error = 0.0, worst_gap = 0.0, worst_foot = 0.0, worst_penetration = 0.0, lowest_end = 0.0;
  double tilt = 0.0;
  for (int n = 0; n < 100; ++n) {  // 1 s at h = 0.01 s
    const StepStats stats = sim->step();
    ASSERT_FALSE(stats.hit_iteration_cap) << "step " << n;
    worst_joint_error = std::max(worst_joint_error, stats.max_joint_error);
    worst_penetration = std::max(worst_penetration, stats.max_penetration);
    worst_gap = std::max(worst_gap, test::max_anchor_gap(*model, sim->joint_records()));
    const std::vector<BodyPose> poses = sim->poses();
    const BodyPose& f = poses[frame];
    // The crank's turn relative to the frame, about y: θ grows from +x towards +z.
    const Mat3 turn = (f.A.transpose() * poses[crank].A) * crank_in_frame0.transpose();
    const double dtheta = std::atan2(turn(2, 0), turn(0, 0));
    lowest_end = 1e300;
    for (int q = 0; q < legs; ++q) {
      const LegLayout leg = layout(q);
      // A mirrored leg's angle runs the other way (θ' = π − φ).
      const Vec2 foot = generate::jansen_leg(leg.theta0 + leg.sign * dtheta).foot;
      const Vec3 expected = f.p + f.A * (axle_in_frame + Vec3(leg.sign * foot.x(), leg_y[q], foot.y()));
      const Vec3 actual = poses[foot_body[q]].p + poses[foot_body[q]].A * foot_local[q];
      worst_foot = std::max(worst_foot, (actual - expected).norm());
      lowest_end = std::min(lowest_end, actual.z());
    }
    tilt = std::max(tilt, std::acos(std::clamp(f.A(2, 2), -1.0, 1.0)));
  }
  std::printf("strandbeest %d legs, load %g: largest joint error %.2e (anchor gap %.2e m), feet off Jansen's linkage by at "
              "most %.2e m, deepest penetration %.2e m, lowest foot at z = %.2e m, frame tilted %.3f rad at most\n",
              legs, load, worst_joint_error, worst_gap, worst_foot, worst_penetration, lowest_end, tilt);
  ::testing::Test::RecordProperty(tag + "max_joint_error", std::to_string(worst_joint_error));
  ::testing::Test::RecordProperty(tag + "max_anchor_gap_m", std::to_string(worst_gap));
  ::testing::Test::RecordProperty(tag + "max_foot_deviation_m", std::to_string(worst_foot));
  EXPECT_LE(worst_joint_error, 1e-6);  // ε_P after every step
  // The frame and the crank are split into ~25 welded parts each (§5); the joints on the far parts sit
  // behind a chain of welds each closed to ε_P, so an anchor (and a foot) can be off by tens of ε_P.
  EXPECT_LT(worst_gap, 1e-4);
  EXPECT_LT(worst_foot, 1e-4);  // a folded leg puts its foot decimetres away
  EXPECT_LT(worst_penetration, 1e-3);
  // Landed and standing on its feet: each foot triangle rests on a corner of its 2 cm bars, at most
  // 1 cm·√2 below the foot point.
  EXPECT_GT(lowest_end, -1e-3);
  EXPECT_LT(lowest_end, 0.01 * std::sqrt(2.0) + 1e-3);
  EXPECT_LT(tilt, 0.3);
}

TEST(ImpulseStrandbeest, FiftyLegsDroppedFortyCentimetresLandWithEveryLegOnJansensLinkage) {
  expect_lands_on_jansens_linkage(50, 0.0, "");
}

TEST(ImpulseStrandbeest, TwelveLegsCarryingTenTimesTheirMassLandAsWell) {
  // The paper's table at its heaviest (k = 10, the frame 11 times the machine's mass) on fewer legs.
  expect_lands_on_jansens_linkage(12, 10.0, "load10_");
}

}  // namespace
}  // namespace affix
