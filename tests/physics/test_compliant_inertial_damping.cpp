// Inertial damping's B (stability_damping.hpp, "Rotation-consistent B") on whole scenes, against closed
// forms: a turned scene moves as the turned motion (B is a tensor of each body, not a diagonal in world
// axes), and an axisymmetric bar whirling along a swing cone keeps its spin about its own axis at 0 (no
// torque acts about it) and never gains energy after it meets the cone (the limit is inelastic), under
// every stabilization (hostile pass 4, D1: 15.9 → 83.9 J and 316 rad/s of spin in 2 s at h = 1/60); a ball-joint
// pendulum, whose undamped swing keeps its amplitude, keeps it at large steps under the default (D3: B had
// drained 30° to 12.1° in 10 s at h = 0.05), and a pendulum whose pivot is driven follows the linear closed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

/// A chain hung from the world, every inertia class in it: a bar on a ball joint (axisymmetric: two equal
/// moments), a box of three distinct moments on a hinge, a cube (isotropic) on a cone_twist whose swing
/// cone it meets, all turned by R (positions, orientations, velocities, anchors, axes, frames, gravity).
Scene turned_chain(const Mat3& R, double h, const std::string& stabilization) {
  BodyDef bar = test::box_body("bar", Vec3(1.0, 0.1, 0.1), R * Vec3(0.5, 0, 0));
  bar.mass = 0.05;  // light under the box: h²k/I ≈ 30 at h = 0.05, B acts on it
  bar.angular_velocity = R * Vec3(0.3, -2.0, 1.5);
  bar.velocity = bar.angular_velocity.cross(R * Vec3(0.5, 0, 0));
  BodyDef box = test::box_body("box", Vec3(0.3, 0.2, 0.1), R * Vec3(1.15, 0, 0));
  box.mass = 10.0;
  BodyDef cube = test::box_body("cube", Vec3::Constant(0.2), R * Vec3(1.3, 0, -0.2));
  cube.mass = 0.5;
  cube.angular_velocity = R * Vec3(0, 4.0, 3.0);
  for (BodyDef* b : {&bar, &box, &cube}) b->rotation = Quat(R);
  Scene scene = test::scene_with({bar, box, cube}, h, std::nullopt);
  scene.settings.gravity = R * Vec3(0, 0, -9.81);
  scene.settings.solver_settings["compliant"]["stabilization"] = stabilization;
  // The curvature term's guard compares the largest |row| of point rows, world components, before and after
  // (compliant_simulator.cpp, made_energy): a max-norm that is not rotation-invariant, so a near tie can flip
  // between the two scenes (measured on a variant: at step 30–33, 10⁻¹⁴ → 10⁻³ m). It is left out here.
  scene.settings.solver_settings["compliant"]["curvature"] = false;
  test::add_joint(scene, JointType::ball, "bar", "world").anchor = Vec3::Zero();
  JointDef& hinge = test::add_joint(scene, JointType::hinge, "box", "bar");
  hinge.anchor = R * Vec3(1.0, 0, 0);
  hinge.axis = R * Vec3(0, 0.6, 0.8);
  JointDef& cone = test::add_joint(scene, JointType::cone_twist, "cube", "box");
  cone.anchor = R * Vec3(1.3, 0, -0.05);
  cone.frame = R * Eigen::AngleAxisd(0.5 * std::numbers::pi, Vec3::UnitY()).toRotationMatrix();
  cone.swing1_limits = AngleRange{-20 * kDeg, 20 * kDeg};
  cone.swing2_limits = AngleRange{-40 * kDeg, 40 * kDeg};
  return scene;
}

TEST(CompliantInertialDamping, ATurnedSceneMovesAsTheTurnedMotion) {
  std::mt19937 rng(15);
  std::normal_distribution<double> normal;
  const Mat3 R = Quat(normal(rng), normal(rng), normal(rng), normal(rng)).normalized().toRotationMatrix();
  const double h = 0.05;
  for (const char* stabilization : {"inertial_damping", "geometric_stiffness", "none", "auto"}) {
    const auto upright = test::simulate(turned_chain(Mat3::Identity(), h, stabilization), "compliant");
    const auto turned = test::simulate(turned_chain(R, h, stabilization), "compliant");
    double position = 0.0, orientation = 0.0, velocity = 0.0, swing = 0.0;
    for (int n = 0; n < 40; ++n) {  // 2 s: the bar swings, the cube meets its cone
      upright->step();
      turned->step();
      for (std::size_t b = 0; b < 3; ++b) {
        const BodyPose p = upright->poses()[b], q = turned->poses()[b];
        position = std::max(position, (R * p.p - q.p).norm());
        orientation = std::max(orientation, (R * p.A - q.A).norm());
        const BodyVelocity v = upright->velocities()[b], w = turned->velocities()[b];
        velocity = std::max(velocity, (R * v.angular - w.angular).norm() / (1.0 + v.angular.norm()));
      }
      // The cube's twist axis (−z at t = 0) against the box's (the box turned as it has since t = 0).
      const Vec3 cube_axis = -upright->poses()[2].A.col(2), box_axis = -upright->poses()[1].A.col(2);
      swing = std::max(swing, std::acos(std::clamp(cube_axis.dot(box_axis), -1.0, 1.0)));
    }
    std::printf("%s, scene turned: largest position difference %.1e m, orientation %.1e, angular velocity %.1e; "
                "the cube's largest swing %.2f deg\n",
                stabilization, position, orientation, velocity, swing / kDeg);
    // World-diagonal B (before; measured over 1.5 s with the curvature term on): 8.6e-2 m, 0.77, 0.67 under
    // inertial damping and "auto", growing from step 3 on, no near tie involved.
    EXPECT_LT(position, 1e-8) << stabilization;
    EXPECT_LT(orientation, 1e-8) << stabilization;
    EXPECT_LT(velocity, 1e-8) << stabilization;
    EXPECT_GT(swing, 19.9 * kDeg) << stabilization << ": the cube never met its cone";
  }
}

struct Whirl {
  double impact = 0.0;        // KE at the end of the step that meets the cone (J)
  double settled = 0.0;       // KE at the end of the step after the one that meets the cone (J)
  double largest_gain = 0.0;  // max over later steps of KE − settled (J)
  double largest_rise = 0.0;  // max over the steps after the impact of KE(n) − KE(n − 1) (J)
  double largest_spin = 0.0;  // max |ω·x₁| (rad/s)
  double largest_ratio = 0.0; // max θ/θ_lim
};

/// The hostile pass's scene: a 1 kg bar (1 × 0.1 × 0.1 m, axisymmetric about x₁) on a cone_twist at the
/// world's origin, no gravity, swing spans ±20° and ±40°, turning at w0 about n ⟂ x₁ that points into
/// the cone at 72° from swing1, for 2 s.
Whirl whirl(double h, double w0, const std::string& stabilization) {
  BodyDef bar = test::box_body("bar", Vec3(1.0, 0.1, 0.1), Vec3(0.5, 0, 0));
  bar.mass = 1.0;
  const double phi = 72 * kDeg;
  bar.angular_velocity = w0 * Vec3(0, -std::sin(phi), std::cos(phi));
  bar.velocity = bar.angular_velocity.cross(bar.position);
  Scene scene = test::scene_with({bar}, h, std::nullopt);
  scene.settings.gravity = Vec3::Zero();
  scene.settings.solver_settings["compliant"]["stabilization"] = stabilization;
  JointDef& j = test::add_joint(scene, JointType::cone_twist, "bar", "world");
  j.anchor = Vec3::Zero();
  j.swing1_limits = AngleRange{-20 * kDeg, 20 * kDeg};
  j.swing2_limits = AngleRange{-40 * kDeg, 40 * kDeg};
  const auto sim = test::simulate(scene, "compliant");
  Whirl out;
  const double Y = 20 * kDeg, Z = 40 * kDeg;
  const int steps = static_cast<int>(std::lround(2.0 / h));
  int met = -1;  // the step that meets the cone
  std::vector<double> kinetic;
  for (int n = 0; n < steps; ++n) {
    const StepStats s = sim->step();
    const Vec3 x1 = sim->poses()[0].A.col(0), omega = sim->velocities()[0].angular;
    const double r = std::hypot(x1.y(), x1.z()), theta = std::atan2(r, x1.x());
    const double n1 = -x1.z() / std::max(r, 1e-300), n2 = x1.y() / std::max(r, 1e-300);
    const double ratio = theta * std::sqrt(n1 * n1 / (Y * Y) + n2 * n2 / (Z * Z));
    out.largest_ratio = std::max(out.largest_ratio, ratio);
    out.largest_spin = std::max(out.largest_spin, std::abs(omega.dot(x1)));
    if (met < 0 && ratio > 0.999) met = n;
    kinetic.push_back(s.kinetic_energy);
  }
  EXPECT_GE(met, 0) << "the bar never reached the cone";
  if (met < 0 || met + 1 >= steps) return out;
  out.impact = kinetic[met];
  out.settled = kinetic[met + 1];
  for (int n = met + 1; n < steps; ++n) {
    out.largest_gain = std::max(out.largest_gain, kinetic[n] - out.settled);
    out.largest_rise = std::max(out.largest_rise, kinetic[n] - kinetic[n - 1]);
  }
  return out;
}

TEST(CompliantInertialDamping, BarWhirlingAlongASwingConeKeepsNoSpinAndGainsNoEnergy) {
  for (const double h : {1.0 / 60.0, 0.05})
    for (const char* stabilization :
         {"inertial_damping", "geometric_stiffness", "none", "constraint_damping", "auto"}) {
      const Whirl w = whirl(h, 50.0, stabilization);
      std::printf("h = %.4f, %s: kinetic energy at and after the impact %.3f, %.3f J, largest gain over it %.2e J, largest "
                  "rise in a step %.2e J, largest spin %.2e rad/s, largest θ/θ_lim %.6f\n",
                  h, stabilization, w.impact, w.settled, w.largest_gain, w.largest_rise, w.largest_spin, w.largest_ratio);
      // The limit is inelastic and nothing else does work: no gain after the impact (world-diagonal B,
      // before: 15.9 → 83.9 J at 1/60, 3.6 → 8.6 J at 0.05).
      EXPECT_LE(w.settled + w.largest_gain, w.impact) << stabilization << " at h = " << h;
      EXPECT_LE(w.largest_ratio, 1.0 + 1e-6) << stabilization << " at h = " << h;
      // No torque acts about x₁ (the joint's force passes through the axis, the cone's torque is ⟂ x₁):
      // the spin stays 0. Geometric stiffness's M − h² sym K̃ couples x₁ to the swing (README, Known limits).
      // So no step raises the energy either (geometric stiffness excepted: its swing and spin trade energy).
      if (std::string(stabilization) != "geometric_stiffness") {
        EXPECT_LT(w.largest_spin, 1e-6) << stabilization << " at h = " << h;
        EXPECT_LE(w.largest_gain, 1e-9 * w.settled) << stabilization << " at h = " << h;
        EXPECT_LE(w.largest_rise, 1e-9 * w.settled) << stabilization << " at h = " << h;
      }
    }
}

/// Largest angle off the vertical (rad) over the last 2.2 s of 10 s (the swing's period is 2.0 s) of a 1 kg
/// sphere (r = 5 cm) 1 m below a ball joint to the world, released at rest 30° off the vertical.
double pendulum_amplitude(double h, const std::string& stabilization) {
  const double l = 1.0, theta0 = 30 * kDeg;
  BodyDef bob = test::sphere_body("bob", 0.05, Vec3(l * std::sin(theta0), 0, 2.0 - l * std::cos(theta0)));
  bob.mass = 1.0;
  Scene scene = test::scene_with({bob}, h, std::nullopt);
  scene.settings.solver_settings["compliant"]["stabilization"] = stabilization;
  test::add_joint(scene, JointType::ball, "bob", "world").anchor = Vec3(0, 0, 2.0);
  const auto sim = test::simulate(scene, "compliant");
  const int steps = static_cast<int>(std::lround(10.0 / h)), last = static_cast<int>(std::lround(2.2 / h));
  double amplitude = 0.0;
  for (int n = 0; n < steps; ++n) {
    sim->step();
    const Vec3 arm = sim->poses()[0].p - Vec3(0, 0, 2.0);
    if (n >= steps - last) amplitude = std::max(amplitude, std::acos(std::clamp(-arm.z() / arm.norm(), -1.0, 1.0)));
  }
  return amplitude;
}

TEST(CompliantInertialDamping, BallJointPendulumKeepsItsAmplitudeAtLargeSteps) {
  // Closed form: no force does work on an undamped pendulum, so it swings back to 30° every period. The
  // plain step ("none") loses 1.1 %, 3.6 % and 7.7 % of it in 10 s at these steps (the step's own drift);
  // the default's damping (B) had taken 1.1 %, 60 % and 86 % (30° → 29.7°, 12.1°, 4.3°).
  const double h[] = {1.0 / 60.0, 0.05, 0.1}, kept[] = {0.98, 0.95, 0.9};
  for (int i = 0; i < 3; ++i) {
    const double amplitude = pendulum_amplitude(h[i], "inertial_damping"), plain = pendulum_amplitude(h[i], "none");
    std::printf("ball-joint pendulum released at 30 deg, h = %.4f: amplitude after 10 s %.2f deg (\"none\" %.2f)\n", h[i],
                amplitude / kDeg, plain / kDeg);
    EXPECT_GT(amplitude, kept[i] * 30 * kDeg) << "h = " << h[i];
    EXPECT_LE(amplitude, 30 * kDeg + 1e-3) << "h = " << h[i];
    EXPECT_NEAR(amplitude, plain, 1e-9) << "h = " << h[i] << ": a body held by one pin takes no B";
  }
}

TEST(CompliantInertialDamping, PendulumOnADrivenPivotFollowsTheLinearClosedForm) {
  // The pivot moved as x = A(1 − cos Ωt) by set_kinematic_target: in the pivot's frame the bob feels
  // −m ẍ, and for small angles I_p θ̈ + mgl θ = −ml A Ω² cos Ωt from rest, so
  //   θ(t) = −(ml A Ω² / (I_p (ω₀² − Ω²))) (cos Ωt − cos ω₀t),  ω₀² = mgl/I_p, I_p = ml² + I_bob.
  // The default's B had made it 36 % off at h = 0.05 and 54 % at 0.1 (the hostile pass's kin.py).
  const double A = 0.02, Omega = 2.0, l = 1.0, m = 1.0, g = 9.81;
  for (const double h : {1.0 / 60.0, 0.05, 0.1}) {
    BodyDef pivot = test::box_body("pivot", Vec3::Constant(0.1), Vec3(0, 0, 2.0));
    pivot.kinematic = Kinematic{};
    BodyDef bob = test::sphere_body("bob", 0.05, Vec3(0, 0, 2.0 - l));
    bob.mass = m;
    Scene scene = test::scene_with({pivot, bob}, h, std::nullopt);
    test::add_joint(scene, JointType::ball, "bob", "pivot").anchor = Vec3(0, 0, 2.0);
    const auto model = test::compiled(scene, "compliant");
    const auto sim = make_simulator(model);
    const double I = m * l * l + model->bodies[1].inertia(1, 1), w0 = std::sqrt(m * g * l / I);
    const double amplitude = m * l * A * Omega * Omega / (I * (w0 * w0 - Omega * Omega));
    double worst = 0.0;
    for (int n = 1; n <= static_cast<int>(std::lround(10.0 / h)); ++n) {
      const double t = n * h;
      BodyPose target{Vec3(A * (1.0 - std::cos(Omega * t)), 0, 2.0), Mat3::Identity()};
      sim->set_kinematic_target(0, target);
      sim->step();
      const Vec3 arm = sim->poses()[1].p - sim->poses()[0].p;
      const double theta = std::atan2(arm.x(), -arm.z());
      worst = std::max(worst, std::abs(theta + amplitude * (std::cos(Omega * t) - std::cos(w0 * t))));
    }
    std::printf("driven pivot, h = %.4f: largest error against the closed form %.2e rad of an amplitude %.2e rad\n", h,
                worst, 2 * amplitude);
    // The step's own phase error grows as h² (ω₀h = 0.31 at h = 0.1); 1 % and 10 % of the swing.
    EXPECT_LT(worst, (h < 0.02 ? 0.01 : 0.1) * 2 * amplitude) << "h = " << h;
  }
}

// Found with the whirling bar at h = 0.1 (README, Known limits), not fixed (a fix on branch
// compliant16a-free-rotation, not merged): the free drift keeps the world
// angular momentum L while R ← exp(hω)R, ω = I⁻¹L (compliant_simulator.cpp, drift_at_constant_momentum). For
// an axisymmetric body with spin s about its axis x₁ that turns x₁ by β in a step, L·x₁ then changes and
// s₊ = s (1 + (I_t/I_a − 1)(1 − cos β)): ×46 a step for this bar (I_t/I_a = 50.5) at 48 rad/s and h = 0.1,
// ×6.6 at h = 0.01, ×1.65 at 9.8 rad/s and h = 1/60. Closed form: torque-free, the spin ω·x₁ is constant.
TEST(CompliantInertialDampingKnown, DISABLED_FreeBarTumblingEndOverEndKeepsItsSpin) {
  for (const double h : {0.01, 1.0 / 60.0, 0.05, 0.1}) {
    BodyDef bar = test::box_body("bar", Vec3(1.0, 0.1, 0.1), Vec3::Zero());
    bar.mass = 1.0;
    bar.angular_velocity = Vec3(1e-6, 0, 48.0);  // end over end, and a spin of 10⁻⁶ rad/s
    Scene scene = test::scene_with({bar}, h, std::nullopt);
    scene.settings.gravity = Vec3::Zero();
    const auto sim = test::simulate(scene, "compliant");
    double worst = 0.0;
    for (int n = 0; n < static_cast<int>(std::lround(1.0 / h)); ++n) {
      sim->step();
      worst = std::max(worst, std::abs(sim->velocities()[0].angular.dot(sim->poses()[0].A.col(0)) - 1e-6));
    }
    EXPECT_LT(worst, 1e-9) << "h = " << h;
  }
}

}  // namespace
}  // namespace affix
