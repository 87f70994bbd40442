// A 2 t car on a bridge of 10 kg planks hung on cable joints (hostile pass 3 of issue 15), at large steps.
// Twenty planks 0.49 × 2 × 0.05 m on pairs of `cable` joints (bending 10³) sag as a circular arc of 10 m
// over a 9.6 m span; the car (a 2 t box chassis on four 0.3 m, 10 kg sphere wheels on hinge motors at
// 3 rad/s) drives over it. At h = 0.05 and 0.1 it stopped as a divergence, a wheel 4.1 / 6.5 cm into a plank:
// the post-step projection (project_poses), which moves the bodies back onto their joints, moved a plank into
// a wheel, as it knew no contacts; and the rows linearised at the preview let a plank turning under a wheel
// end deeper than they allowed (compliant_contact_gaps.cpp, "Contacts in the projection", "Re-linearisation").
// Closed form: on the bridge's level middle the wheels roll, the car drives at ωR (0.9 m/s); it must
// cross without a reported divergence, as at h = 1/60 (0.8995 m/s there).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kOmega = 3.0, kWheel = 0.3;

Scene plank_bridge(double h) {
  const int n = 20;
  const double arc = 10.0, chord = 9.6, top = 5.0, plank = arc / n;
  // The arc's radius: 2R sin(s/2R) = c, by bisection.
  double lo = chord / 2 * 1.0001, hi = 1e4;
  for (int it = 0; it < 200; ++it) {
    const double R = 0.5 * (lo + hi);
    (2 * R * std::sin(arc / (2 * R)) > chord ? hi : lo) = R;
  }
  const double R = 0.5 * (lo + hi), half = arc / (2 * R), centre = top + R * std::cos(half);
  std::vector<Vec2> P;
  for (int i = 0; i <= n; ++i) {
    const double a = -half + 2 * half * i / n;
    P.push_back({chord / 2 + R * std::sin(a), centre - R * std::cos(a)});
  }
  std::vector<BodyDef> bodies;
  for (int i = 0; i < n; ++i) {
    const double angle = std::atan2(P[i + 1].y() - P[i].y(), P[i + 1].x() - P[i].x());
    const Vec2 normal(-std::sin(angle), std::cos(angle)), mid = 0.5 * (P[i] + P[i + 1]) - 0.025 * normal;
    BodyDef b = test::box_body("p" + std::to_string(i), Vec3(0.98 * plank, 2.0, 0.05), {mid.x(), 0, mid.y()});
    b.rotation = Quat(Eigen::AngleAxisd(angle, -Vec3::UnitY()));
    b.mass = 10.0;
    b.friction = 0.8;
    bodies.push_back(b);
  }
  const int at = 3;
  const double wheels_z = std::max(P[at - 2].y(), P[at + 2].y()) + kWheel + 0.05;
  BodyDef chassis = test::box_body("chassis", Vec3(2.0, 1.0, 0.3), {P[at].x(), 0, wheels_z + 0.35});
  chassis.mass = 2000.0;
  chassis.friction = 0.8;
  bodies.push_back(chassis);
  const Vec2 wheel_at[4] = {{0.8, 0.65}, {0.8, -0.65}, {-0.8, 0.65}, {-0.8, -0.65}};
  for (int k = 0; k < 4; ++k) {
    BodyDef w = test::sphere_body("w" + std::to_string(k), kWheel, {P[at].x() + wheel_at[k].x(), wheel_at[k].y(), wheels_z});
    w.mass = 10.0;
    w.friction = 0.8;
    bodies.push_back(w);
  }
  Scene scene = test::scene_with(bodies, h, std::nullopt);
  for (int i = 0; i <= n; ++i) {
    const int a = std::max(i - 1, 0), b = std::min(i + 1, n);
    const Vec3 axis(P[b].x() - P[a].x(), 0, P[b].y() - P[a].y());
    for (const double side : {1.0, -1.0}) {
      JointDef& j = test::add_joint(scene, JointType::cable, "p" + std::to_string(i < n ? i : n - 1),
                                    i == 0 || i == n ? std::string("world") : "p" + std::to_string(i - 1));
      j.anchor = {P[i].x(), side, P[i].y() - 0.025};
      j.axis = axis;
      j.bending = {1e3, 0.0};
      j.torsion = {1e3, 0.0};
    }
  }
  for (int k = 0; k < 4; ++k) {
    JointDef& j = test::add_joint(scene, JointType::hinge, "w" + std::to_string(k), "chassis");
    j.anchor = bodies[n + 1 + k].position;
    j.axis = Vec3::UnitY();
    j.motor = MotorDef{kOmega};
  }
  return scene;
}

void expect_crossing(double h) {
  const auto sim = test::simulate(plank_bridge(h), "compliant");
  const int chassis = 20;
  double deepest = 0.0, x3 = 0.0, x7 = 0.0;
  const int steps = static_cast<int>(std::lround(10.0 / h));
  for (int s = 1; s <= steps; ++s) {
    const StepStats stats = sim->step();  // throws SimulationError on a divergence
    deepest = std::max(deepest, stats.max_penetration);
    if (s == std::lround(3.0 / h)) x3 = sim->poses()[chassis].p.x();
    if (s == std::lround(7.0 / h)) x7 = sim->poses()[chassis].p.x();
  }
  const double speed = (x7 - x3) / 4.0, x = sim->poses()[chassis].p.x();
  std::printf("h = %.2f: the car drives %.4f m/s over the middle (omega R = %.4f), reaches x = %.3f m of 9.6, "
              "deepest overlap %.4f m\n",
              h, speed, kOmega * kWheel, x, deepest);
  // 3.4 % slow at h = 0.05 (0.06 % at 1/60): the planks' joints and the wheels' passes over their seams.
  EXPECT_NEAR(speed, kOmega * kWheel, 0.05 * kOmega * kWheel);
  EXPECT_GT(x, 8.5);  // across the span, as at h = 1/60
  EXPECT_LT(deepest, 0.01);
}

TEST(CompliantPlankBridge, HeavyCarCrossesALightPlankBridgeAtATwentiethOfASecond) { expect_crossing(0.05); }

// Not yet: at h = 0.1 the car drives at 0.868 m/s over the middle and then, near the far end where the last
// planks rise steeply, the re-linearisation does not converge (a plank turning under a wheel by a large angle
// within the step) and a wheel sinks 0.17–0.31 m into a plank (README, Known limits).
TEST(CompliantPlankBridgeKnown, DISABLED_HeavyCarCrossesALightPlankBridgeAtATenthOfASecond) { expect_crossing(0.1); }

}  // namespace
}  // namespace affix
