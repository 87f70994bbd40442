// A long cable of light links under a heavy load swinging as a pendulum (issue 15, hostile pass 3, D5):
// its period against the closed form of the straight cable turning about its anchor, and how much of its
// swing each stabilization keeps. Inertial damping (Eq. 13) damps every link's absolute turn, which the
// swing itself is, and drains it; `"auto"` damps the bodies that a cable's soft rows hold in constraint
// space (Eq. 14–17), whose rates are relative turns (stability_damping.hpp, "Which bodies").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "affix/solvers/compliant/compliant_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;
constexpr int kLinks = 30;
constexpr double kLink = 0.1, kWidth = 0.02, kLinkMass = 0.05;  // 30 links of 0.05 kg, 3 m
constexpr double kLoad = 20.0, kLoadSize = 0.2;                  // a 20 kg cube
constexpr double kBending = 10.0;                                // N·m/rad, the Fig. 8 cable's
constexpr double kTilt = 10.0 * std::numbers::pi / 180.0;

/// The cable pendulum released at rest kTilt off the vertical: `cable` joints (axial and shear 10¹²,
/// bending and torsion kBending), or ball joints with `ball`.
Scene cable_pendulum(double dt, const nlohmann::json& settings, bool ball = false) {
  const Vec3 down(std::sin(kTilt), 0.0, -std::cos(kTilt));
  const Quat rotation = Quat::FromTwoVectors(Vec3::UnitZ(), -down);
  std::vector<BodyDef> bodies;
  for (int k = 0; k < kLinks; ++k) {
    BodyDef b = test::box_body("link" + std::to_string(k), Vec3(kWidth, kWidth, kLink), (k + 0.5) * kLink * down);
    b.mass = kLinkMass;
    b.rotation = rotation;
    bodies.push_back(b);
  }
  BodyDef load = test::box_body("load", Vec3::Constant(kLoadSize), (kLinks * kLink + 0.5 * kLoadSize) * down);
  load.mass = kLoad;
  load.rotation = rotation;
  bodies.push_back(load);
  Scene scene = test::scene_with(std::move(bodies), dt, std::nullopt);
  scene.settings.solver = "compliant";
  scene.settings.solver_settings["compliant"] = settings;
  for (int k = 0; k <= kLinks; ++k) {
    JointDef& j = test::add_joint(scene, ball ? JointType::ball : JointType::cable,
                                  k < kLinks ? "link" + std::to_string(k) : "load",
                                  k == 0 ? "world" : "link" + std::to_string(k - 1));
    j.anchor = k * kLink * down;
    if (ball) continue;
    j.axis = down;
    j.bending = j.torsion = {kBending, 0.0};
  }
  return scene;
}

/// The closed form: the straight cable turning rigidly about its anchor (Rayleigh's quotient with the
/// straight shape, exact as the load outweighs the cable), I θ̈ = −(g Σ m r + k_top) θ, k_top the bending
/// spring of the joint to the world; times 1 + θ₀²/16 for the amplitude.
double closed_form_period() {
  double inertia = 0.0, moment = 0.0;
  for (int k = 0; k < kLinks; ++k) {
    const double r = (k + 0.5) * kLink;
    inertia += kLinkMass * (r * r + (kLink * kLink + kWidth * kWidth) / 12.0);
    moment += kLinkMass * r;
  }
  const double r = kLinks * kLink + 0.5 * kLoadSize;
  inertia += kLoad * (r * r + kLoadSize * kLoadSize / 6.0);
  moment += kLoad * r;
  return 2.0 * std::numbers::pi * std::sqrt(inertia / (kG * moment + kBending)) * (1.0 + kTilt * kTilt / 16.0);
}

struct Swing {
  double period = 0.0;       // mean of the full periods between zero crossings of the load's x velocity
  double first_peak = 0.0;   // the largest kinetic energy of the first two half swings
  double last_peak = 0.0;    // and of the last two
  double max_gap = 0.0;      // largest anchor gap (m)
  int halvings = 0;          // stats.csv's `warnings`, summed
};

Swing swing(const Scene& scene, double duration) {
  const auto model = std::make_shared<const Model>(compile(scene));
  const auto sim = make_simulator(model);
  const int load = kLinks;
  std::vector<double> crossings, peaks;
  double peak = 0.0, last_vx = 0.0;
  Swing out;
  const int steps = static_cast<int>(std::lround(duration / scene.settings.dt));
  for (int n = 0; n < steps; ++n) {
    const StepStats s = sim->step();
    EXPECT_TRUE(std::isfinite(s.kinetic_energy)) << "step " << n;
    out.halvings += s.warnings;
    const double vx = sim->velocities()[load].linear.x();
    if (n > 0 && (vx > 0) != (last_vx > 0)) {
      // The crossing between the two steps, linearly.
      crossings.push_back(sim->time() - scene.settings.dt * vx / (vx - last_vx));
      peaks.push_back(peak);
      peak = 0.0;
    }
    peak = std::max(peak, s.kinetic_energy);
    last_vx = vx;
    out.max_gap = std::max(out.max_gap, test::max_anchor_gap(*model, sim->joint_records()));
  }
  if (crossings.size() >= 3) out.period = 2.0 * (crossings.back() - crossings.front()) / (crossings.size() - 1.0);
  if (peaks.size() >= 4) {
    out.first_peak = std::max(peaks[0], peaks[1]);
    out.last_peak = std::max(peaks[peaks.size() - 1], peaks[peaks.size() - 2]);
  }
  return out;
}

class CablePendulum : public ::testing::TestWithParam<double> {};

// `"auto"` keeps the swing and the period; inertial damping, measured on the same scene, takes most of
// the swing (the defect this checks against: 92 % at 1/60 and all of it at 0.1 on a 30-link capsule cable
// over 12 s, 99.8 % on the hostile pass's 100-link cable over 20 s).
TEST_P(CablePendulum, AutoKeepsTheSwingAndThePeriodOfTheClosedForm) {
  const double h = GetParam(), duration = 12.0, period = closed_form_period();
  const Swing automatic = swing(cable_pendulum(h, {{"stabilization", "auto"}}), duration);
  const Swing inertial = swing(cable_pendulum(h, {{"stabilization", "inertial_damping"}}), duration);
  const double kept = automatic.last_peak / automatic.first_peak;
  std::printf("cable pendulum at h = %.4f s: closed-form period %.4f s; auto %.4f s, peak KE %.3f -> %.3f J (kept "
              "%.1f %%), %d halvings, max gap %.1e m; inertial damping peak KE %.3f -> %.3f J, period %.4f s\n",
              h, period, automatic.period, automatic.first_peak, automatic.last_peak, 100 * kept, automatic.halvings,
              automatic.max_gap, inertial.first_peak, inertial.last_peak, inertial.period);
  EXPECT_NEAR(automatic.period, period, 0.01 * period);
  EXPECT_GE(kept, h < 0.05 ? 0.97 : 0.7);
  EXPECT_LT(automatic.max_gap, 1e-3);
  // The scene tells the two apart: inertial damping ends with less than half of what auto keeps.
  EXPECT_LT(inertial.last_peak, 0.5 * automatic.last_peak);
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, CablePendulum, ::testing::Values(1.0 / 60.0, 0.1), [](const auto& info) {
  return "h" + std::to_string(static_cast<int>(std::lround(1000 * info.param))) + "ms";
});

// Known failure (README, compliant solver, Known limits; hostile pass 3, D4): constraint damping, and so
// `"auto"`, held a long light cable at h = 0.1 only by halving (87 halvings in 120 steps here, 1,190 in 200 on
// the hostile pass's 100-link cable): the step was unstable, its transverse modes in the rigid rows' span,
// which b′ cannot damp (Andrews §5.4). The added inertia (added_inertia.hpp) makes the step stable (halving
// off: it holds); what halves now (62 here) is the projection on M, which folds the light links and stalls.
TEST(CablePendulumKnown, DISABLED_AutoTakesATenthOfASecondWithoutHalving) {
  const Swing automatic = swing(cable_pendulum(0.1, {{"stabilization", "auto"}}), 12.0);
  EXPECT_EQ(automatic.halvings, 0);
}

// `"auto"` is its two parts: on a scene without soft rows (ball joints) it is inertial damping, on one whose
// every body a soft row holds it is constraint damping, step for step and to the last bit.
TEST(CompliantAutoStabilization, IsInertialDampingWithoutSoftRowsAndConstraintDampingWhereEveryBodyHasOne) {
  const auto poses_after = [](const Scene& scene, int steps) {
    const auto sim = make_simulator(std::make_shared<const Model>(compile(scene)));
    for (int n = 0; n < steps; ++n) sim->step();
    return sim->poses();
  };
  const auto same = [](const std::vector<BodyPose>& a, const std::vector<BodyPose>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].p != b[i].p || a[i].A != b[i].A) return false;
    return a.size() == b.size();
  };
  const double h = 1.0 / 60.0;
  const int steps = 60;
  const auto ball_auto = poses_after(cable_pendulum(h, {{"stabilization", "auto"}}, true), steps);
  const auto ball_inertial = poses_after(cable_pendulum(h, {{"stabilization", "inertial_damping"}}, true), steps);
  const auto ball_other = poses_after(cable_pendulum(h, {{"stabilization", "inertial_damping"}, {"alpha", 0.5}}, true), steps);
  EXPECT_TRUE(same(ball_auto, ball_inertial));
  EXPECT_FALSE(same(ball_auto, ball_other));  // the comparison can fail
  const auto cable_auto = poses_after(cable_pendulum(h, {{"stabilization", "auto"}}), steps);
  const auto cable_constraint = poses_after(cable_pendulum(h, {{"stabilization", "constraint_damping"}}), steps);
  const auto cable_inertial = poses_after(cable_pendulum(h, {{"stabilization", "inertial_damping"}}), steps);
  EXPECT_TRUE(same(cable_auto, cable_constraint));
  EXPECT_FALSE(same(cable_auto, cable_inertial));
}

}  // namespace
}  // namespace affix
