// Hinge limits past ±180° on every solver that keeps limits (issue 15; joints/joint_turns.hpp): a joint's
// angle is read by atan2 in (−180°, 180°], and a bound past ±180° held nothing until the solvers counted
// turns. A flat box hinged at its centre about the vertical (gravity along the axis does no work) is
// turned by a constant torque. The angle is read from the poses alone, continued here from one step to
// the next. Until it reaches its stop the limited wheel turns exactly as the same solver's wheel without
// limits (the reference integration: the limit must not act anywhere else, ±180° included); then it
// rests on the stop, the closed form θ = bound, pressed by the torque. No solver may let it pass the
// stop; each holds it within kRestTolerance inside (ipc's barrier keeps it off by its clamping distance).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "affix/math/rotation.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::Feature;

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180.0;
constexpr double kDt = 0.01;
constexpr double kMass = 2.0, kSide = 0.4, kThick = 0.1;
constexpr double kPass = 1e-6;         // rad: how far past its stop a wheel may be seen
constexpr double kRestTolerance = 0.01;  // rad: how far inside its stop a pressed wheel may rest

/// The wheel: a flat box at the origin on a hinge about z at its centre, `limits` in radians.
Scene wheel_scene(const AngleRange& limits) {
  Scene s = test::scene_with({test::box_body("wheel", Vec3(kSide, kSide, kThick), Vec3::Zero())}, kDt, std::nullopt);
  s.bodies[0].mass = kMass;
  JointDef& j = test::add_joint(s, JointType::hinge, "wheel", "world");
  j.anchor = Vec3::Zero();
  j.axis = Vec3::UnitZ();
  j.angle_limits = limits;
  return s;
}

/// A torque about z on the wheel over [start, end).
ForceDef torque(double tau, double start, double end) {
  ForceDef f;
  f.body = "wheel";
  f.body_index = 0;
  f.torque = Vec3(0, 0, tau);
  f.start = start;
  f.end = end;
  return f;
}

/// The wheel's angle about z from its pose, continued from `previous` by the nearest turn (a step turns
/// it by far less than half a turn here: at most 0.3 rad, τ/I = 37.5 rad/s² over 2 s).
double continued_angle(const Simulator& sim, double previous) {
  const Mat3 R = polar_rotation(sim.poses()[0].A);
  const double raw = std::atan2(R(1, 0), R(0, 0));
  return previous + std::remainder(raw - previous, 2.0 * kPi);
}

class MultiTurnLimits : public test::SolverTest {};

/// The wheel's continuous angle after each of `steps` steps under `forces`, with `limits` or none.
std::vector<double> angles(const std::string& solver, const std::optional<AngleRange>& limits,
                           const std::vector<ForceDef>& forces, int steps, double* last_rate = nullptr) {
  Scene s = wheel_scene(limits.value_or(AngleRange{}));
  if (!limits) s.joints[0].angle_limits.reset();
  s.forces = forces;
  const auto sim = test::simulate(s, solver);
  std::vector<double> out;
  double theta = 0.0;
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    out.push_back(theta = continued_angle(*sim, theta));
  }
  if (last_rate) *last_rate = sim->velocities()[0].angular.z();
  return out;
}

TEST_P(MultiTurnLimits, TorqueTurnsAHingeOntoAStopAtTwoHundredSeventyDegreesAndItRestsThere) {
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits);
  const AngleRange limits{-270 * kDeg, 270 * kDeg};
  const std::vector<ForceDef> forces{torque(2.0, 0.0, 1e9)};
  const int steps = 300;
  double rate = 0.0;
  const std::vector<double> limited = angles(GetParam(), limits, forces, steps, &rate);
  const std::vector<double> free = angles(GetParam(), std::nullopt, forces, steps);
  double worst_free = 0.0, passed_half_turn = 0.0;
  for (int n = 0; n < steps; ++n) {
    ASSERT_LE(limited[n], limits.max + kPass) << "past the stop, step " << n + 1;
    if (free[n] < limits.max - 0.3) {  // the free wheel a step or more from the stop (≤ 0.3 rad per step)
      worst_free = std::max(worst_free, std::abs(limited[n] - free[n]));
      passed_half_turn = std::max(passed_half_turn, limited[n]);
    }
  }
  const double theta = limited.back();
  std::printf("%s: off the unlimited wheel by at most %.3e rad up to %.1f°, at rest %.6f° (stop 270°)\n",
              GetParam().c_str(), worst_free, passed_half_turn / kDeg, theta / kDeg);
  EXPECT_GT(passed_half_turn, 240 * kDeg) << "never turned freely well past 180°";
  EXPECT_LT(worst_free, 1e-6) << "the limit acted away from its stop";
  EXPECT_GT(theta, limits.max - kRestTolerance) << "not resting on its stop";
  EXPECT_LT(std::abs(rate), 1e-3) << "still turning";
}

TEST_P(MultiTurnLimits, WheelLimitedToPlusMinusOneTurnTravelsTwoTurnsFromStopToStop) {
  // Driven back onto its −360° stop for 3 s, then forward for 3 s: from rest on −360° it turns through
  // 1.9 turns as the same solver's unlimited wheel turns from rest (no stop on the way, at ±180° or 0°:
  // a full turn is the same pose, so its travel is the reference's), and stops at +360°.
  AFFIX_REQUIRE(GetParam(), JointType::hinge, Feature::joint_limits);
  const AngleRange limits{-360 * kDeg, 360 * kDeg};
  const int steps = 600, back = 300;  // the torque reverses at t = 3 s, after step `back`
  double rate = 0.0;
  const std::vector<double> theta =
      angles(GetParam(), limits, {torque(-3.0, 0.0, 3.0), torque(3.0, 3.0, 1e9)}, steps, &rate);
  const std::vector<double> free = angles(GetParam(), std::nullopt, {torque(3.0, 0.0, 1e9)}, steps - back);
  double worst_free = 0.0, travelled_freely = 0.0;
  for (int n = 0; n < steps; ++n) {
    ASSERT_GE(theta[n], limits.min - kPass) << "past the −360° stop, step " << n + 1;
    ASSERT_LE(theta[n], limits.max + kPass) << "past the +360° stop, step " << n + 1;
    if (n >= back && free[n - back] < 4 * kPi - 0.3) {
      const double travel = theta[n] - theta[back - 1];
      worst_free = std::max(worst_free, std::abs(travel - free[n - back]));
      travelled_freely = travel;
    }
  }
  std::printf("%s: back on %.6f°, forward %.3f turns as the unlimited wheel does (off by at most %.3e rad), at rest "
              "%.6f°\n", GetParam().c_str(), theta[back - 1] / kDeg, travelled_freely / (2 * kPi), worst_free,
              theta.back() / kDeg);
  EXPECT_LT(theta[back - 1], limits.min + kRestTolerance) << "not on the −360° stop before the torque reversed";
  EXPECT_GT(travelled_freely, 1.9 * 2 * kPi) << "stopped before 1.9 turns";
  EXPECT_LT(worst_free, kRestTolerance) << "a stop acted between the two";
  EXPECT_GT(theta.back(), limits.max - kRestTolerance) << "not resting on its +360° stop";
  EXPECT_LT(std::abs(rate), 1e-3) << "still turning";
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, MultiTurnLimits, ::testing::ValuesIn(solver_names()), test::SolverName());

}  // namespace
}  // namespace affix
