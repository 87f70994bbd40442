// Slack cables (settings.compliant.slack_cables; model/slack_cable.hpp): a `cable` joint's axial row
// pulls and never pushes, and stops in compression at the reach r where its links would pass each other.
// Against closed forms, read from the poses: a pendulum on a slack cable released from rest keeps its
// load at the cable's length (the hostile pass's load slid 25 m down through its top joint); a load
// thrown up hard on one slack joint flies freely until the stop at r and no further; a crane's limp
// cable slides through none of its joints.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "affix/model/slack_cable.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;

BodyDef box(const std::string& name, const Vec3& size, const Vec3& position, double mass) {
  BodyDef b = test::box_body(name, size, position);
  b.mass = mass;
  return b;
}

Scene slack_scene(std::vector<BodyDef> bodies, double dt) {
  Scene s = test::scene_with(std::move(bodies), dt, std::nullopt);
  s.settings.solver = "compliant";
  s.settings.solver_settings["compliant"] = {{"slack_cables", true}};
  return s;
}

TEST(SlackCable, ReachIsTheShorterLinkAndTheWorldBoundsNothing) {
  // Links jointed at both ends have their origins half their length from each joint.
  const Vec3 anchor(0, 0, 0), down(0, 0, -1);
  SlackCable c = slack_cable(anchor, down, Vec3(0, 0, -0.25), Vec3(0, 0, 0.5));
  EXPECT_EQ(c.sign, 1.0) << "body 1 below the anchor, the axis down: stretch is d·x₂";
  EXPECT_DOUBLE_EQ(c.reach, 0.5) << "the 0.5 m link, not the 1 m one";
  c = slack_cable(anchor, -down, Vec3(0, 0, -0.25), std::nullopt);
  EXPECT_EQ(c.sign, -1.0);
  EXPECT_DOUBLE_EQ(c.reach, 0.5) << "the world has no length";
  c = slack_cable(anchor, down, Vec3(0.3, 0, 0), std::nullopt);
  EXPECT_EQ(c.reach, 0.0) << "a body beside the anchor has no length along the cable: no slack";
  // The gap: across the axis, and the stretch past either end of [−r, 0].
  c = {1.0, 0.5};
  EXPECT_DOUBLE_EQ(slack_cable_gap(c, Vec3(0, 0, 0.3), down), 0.0) << "slack by 0.3 of 0.5";
  EXPECT_DOUBLE_EQ(slack_cable_gap(c, Vec3(0, 0, 0.7), down), 0.2) << "0.2 past the stop";
  EXPECT_DOUBLE_EQ(slack_cable_gap(c, Vec3(0, 0, -0.1), down), 0.1) << "stretched";
  EXPECT_DOUBLE_EQ(slack_cable_gap(c, Vec3(0.3, 0, -0.4), down), 0.5) << "hypot(0.3 across, 0.4 stretched)";
}

/// Ten 0.1 kg links of 0.25 m on `cable` joints (default stiffness: axial and shear 10¹², bending and
/// torsion 10) from the world, a 20 kg cube of 0.3 m below, tilted by `tilt` from the vertical.
Scene slack_pendulum(double tilt, double dt) {
  const int links = 10;
  const double link = 0.25;
  const Vec3 down(std::sin(tilt), 0.0, -std::cos(tilt));
  const Quat rotation = Quat::FromTwoVectors(Vec3::UnitZ(), -down);
  std::vector<BodyDef> bodies;
  for (int k = 0; k < links; ++k) {
    bodies.push_back(box("link" + std::to_string(k), Vec3(0.02, 0.02, link), (k + 0.5) * link * down, 0.1));
    bodies.back().rotation = rotation;
  }
  bodies.push_back(box("load", Vec3::Constant(0.3), (links * link + 0.15) * down, 20.0));
  bodies.back().rotation = rotation;
  Scene s = slack_scene(bodies, dt);
  for (int k = 0; k <= links; ++k) {
    JointDef& j = test::add_joint(s, JointType::cable, k < links ? "link" + std::to_string(k) : "load",
                                  k == 0 ? "world" : "link" + std::to_string(k - 1));
    j.anchor = k * link * down;
    j.axis = down;
  }
  return s;
}

/// What a slack pendulum's run showed, from the poses and joint records alone.
struct PendulumReport {
  double longest = 0.0, shortest = INFINITY;  // the load's top from the anchor (m)
  double most_slack = 0.0, most_stretch = 0.0;  // any joint's e = σ(a₁ − a₂)·axis 2 below 0, above 0 (m)
  double last_height = 0.0;                   // the load's top at the end, below the anchor (m)
};

PendulumReport swing(double tilt, double dt, double duration) {
  const auto sim = test::simulate(slack_pendulum(tilt, dt), "compliant");
  PendulumReport r;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const BodyPose& load = sim->poses().back();
    const Vec3 top = load.A * Vec3(0, 0, 0.15) + load.p;  // the top face's centre (its z runs up the cable)
    r.longest = std::max(r.longest, top.norm());
    r.shortest = std::min(r.shortest, top.norm());
    r.last_height = -top.z();
    for (const JointRecord& j : sim->joint_records()) {  // σ = +1: the axes point down the cable
      const double e = (j.anchor1 - j.anchor2).dot(j.axis2);
      r.most_slack = std::max(r.most_slack, -e);
      r.most_stretch = std::max(r.most_stretch, e);
    }
  }
  return r;
}

TEST(SlackCable, LoadHangingStraightStaysAtTheCablesLength) {
  // Released from rest hanging straight, the load stays at L = 2.5 m below the anchor (ten links of
  // 0.25 m), stretched by the axial compliance: 11 joints × (20 + …) kg g / 10¹² N/m ≈ 2·10⁻⁹ m.
  for (const double dt : {0.01, 0.1}) {
    const PendulumReport r = swing(0.0, dt, 5.0);
    std::printf("slack cable hanging straight, h = %.2f: the load's top %.12f … %.12f m below the anchor\n", dt,
                r.shortest, r.longest);
    EXPECT_NEAR(r.shortest, 2.5, 1e-8);
    EXPECT_NEAR(r.longest, 2.5, 1e-8);
    EXPECT_LT(r.most_slack, 1e-9);
  }
}

TEST(SlackCable, PendulumReleasedSlackNeverSlidesThroughAJoint) {
  // Released from rest 90° and 120° off the vertical the cable is slack (no tension at the release; the
  // load falls until it pulls the cable taut): the hostile pass's pendulum, whose top link slid 30 m
  // through the world's joint on main by 3–6 s (the run stopped, torn). Now no joint telescopes past its
  // stop (e ≥ −r, r = 0.25 m, to the step's tolerance: 10⁻⁵ m at h = 0.01, 10⁻³ at 0.1), none stretches
  // by more than the stiff rows' step error as the cable snaps taut (10⁻³ m at h = 0.01, 10⁻² at 0.1),
  // and the load swings below the anchor within L + r (and those errors) of it: a
  // joint that telescopes while folded (bending 10 N·m/rad lets it) slides along its own axis, not the
  // cable's, and lengthens the cable by up to r (README, Known limits).
  const double L = 2.5, r = 0.25;
  for (const double tilt : {std::numbers::pi / 2, 2 * std::numbers::pi / 3})
    for (const double dt : {0.01, 0.1}) {
      const PendulumReport p = swing(tilt, dt, 10.0);
      std::printf("slack pendulum released at %.0f°, h = %.2f: the load's top %.6f … %.6f m from the anchor, joints "
                  "slack by at most %.9f m (stop 0.25 m), stretched by at most %.2e m\n",
                  tilt * 180 / std::numbers::pi, dt, p.shortest, p.longest, p.most_slack, p.most_stretch);
      const double stop = dt == 0.01 ? 1e-5 : 1e-3, stretch = dt == 0.01 ? 1e-3 : 1e-2;
      EXPECT_LT(p.most_slack, r + stop) << "a joint telescoped past its stop";
      EXPECT_LT(p.most_stretch, stretch);
      EXPECT_LT(p.longest, L + r + 2 * stretch);
      EXPECT_GT(p.longest, L - 0.01) << "the cable never pulled taut";
    }
}

TEST(SlackCable, LoadThrownUpHardStopsWhereItsLinkWouldPassTheAnchor) {
  // A 10 kg cube of 0.2 m hanging on one slack joint at its top face (r = 0.2 m: the cube's length
  // along the cable), thrown up at 3 m/s: free flight would rise v₀²/2g = 0.46 m, so it rises freely to
  // the stop at 0.2 m above its start and stops there (an inelastic stop), then falls back from rest at
  // z₀ + r and is caught at z₀.
  const double dt = 0.005, v0 = 3.0, z0 = -0.5, r = 0.2;
  BodyDef load = box("load", Vec3::Constant(0.2), Vec3(0, 0, z0), 10.0);
  load.velocity = Vec3(0, 0, v0);
  Scene s = slack_scene({load}, dt);
  JointDef& j = test::add_joint(s, JointType::cable, "load", "world");
  j.anchor = Vec3(0, 0, z0 + 0.1);
  j.axis = -Vec3::UnitZ();
  const auto sim = test::simulate(s, "compliant");
  // Free flight z₀ + v₀t − ½gt(t + h) reaches z₀ + r at t_r; the stop holds it there at v = 0 (the
  // step that reaches the stop ends on it), then it falls freely for √(2r/g).
  const double t_r = (v0 - std::sqrt(v0 * v0 - 2.0 * kG * r)) / kG;
  const double t_catch = t_r + std::sqrt(2.0 * r / kG);
  double highest = -INFINITY;
  for (int n = 1; n * dt < t_catch + 0.3; ++n) {
    sim->step();
    const double t = n * dt, z = sim->poses()[0].p.z();
    highest = std::max(highest, z);
    ASSERT_LE(z, z0 + r + 1e-6) << "past the stop, step " << n;
    if (t < t_r - 2 * dt) {
      ASSERT_NEAR(z, z0 + v0 * t - 0.5 * kG * t * (t + dt), 1e-9) << "free flight, step " << n;
    }
    if (t > t_catch + 0.1) {
      ASSERT_NEAR(z, z0, 1e-3) << "caught, step " << n;
    }
  }
  std::printf("thrown up hard on a slack joint: highest %.9f m above the start (stop at %.2f m)\n", highest - z0, r);
  EXPECT_NEAR(highest, z0 + r, 1e-6);
}

}  // namespace
}  // namespace affix
