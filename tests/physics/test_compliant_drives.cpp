// Motors and implicit PD servos of the compliant solver (solvers/compliant/drive_rows.hpp) against
// closed forms: a hinge motor brings a free wheel to its speed in one step, or at its torque limit at
// the rate τ/I; a servo follows the implicit PD recurrence I(ω₊ − ω)/h = −k(θ + hω₊ − θ*) − dω₊ step
// for step (far past the explicit stability bound h²k/I ≤ 4); a servo-held pendulum settles where the
// servo balances gravity, k(θ* − θ) = m g ℓ sin θ; a prismatic motor whose force bound cannot hold a
// load lets it slip at a = g − F/m, and one that can holds it; a torque-limited motor driving a wheel
// into its hinge limit (both box and limit rows of the mixed LCP) spins up at τ/I and then rests on it;
// an unbounded motor driving a pendulum into its hinge limit stops on it in one step (its rate cut to the
// one that lands on the limit, drive_rows.hpp) with no energy beyond that step's, and a bounded one
// presses on the limit with exactly its torque on top of gravity's; the servo of
// examples/compliant/luffing_crane.json raises the loaded boom to its set point less the
// static sag k(s − s*) = τ_gravity(s).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/compliant/compliant_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;
/// A motor row is a velocity row with the rows' default compliance C = 10⁻¹² (drive_rows.hpp): it
/// gives C·λ/h of velocity under a force λ, 10⁻⁸ m/s for a 98 N load at h = 0.01 s.
double motor_give(double force, double h) { return 1e-12 * force / h + 1e-12; }

Scene compliant_scene(std::vector<BodyDef> bodies, double dt, const Vec3& gravity) {
  Scene s = test::scene_with(std::move(bodies), dt, std::nullopt);
  s.settings.solver = "compliant";
  s.settings.gravity = gravity;
  return s;
}

/// A 0.4 × 0.2 × 0.1 m, 3 kg box on a hinge about the world z axis through its centre (gravity along the
/// axis: no torque about it). I_zz = m(a² + b²)/12.
constexpr double kWheelMass = 3.0, kWheelI = kWheelMass * (0.4 * 0.4 + 0.2 * 0.2) / 12.0;
Scene wheel(double dt) {
  BodyDef b = test::box_body("wheel", Vec3(0.4, 0.2, 0.1), Vec3::Zero());
  b.mass = kWheelMass;
  Scene s = compliant_scene({b}, dt, Vec3(0, 0, -kG));
  JointDef& j = test::add_joint(s, JointType::hinge, "wheel", "world");
  j.anchor = Vec3::Zero();
  j.axis = Vec3::UnitZ();
  return s;
}

/// The wheel's angle about z: the box's x axis is (cos θ, sin θ, 0).
double wheel_angle(const Simulator& sim) {
  const Mat3& A = sim.poses()[0].A;
  return std::atan2(A(1, 0), A(0, 0));
}

TEST(CompliantDrives, HingeMotorBringsAFreeWheelToItsSpeedInOneStep) {
  Scene s = wheel(0.01);
  s.joints[0].motor = MotorDef{3.0};
  const auto sim = make_simulator(s);
  for (int n = 1; n <= 50; ++n) {
    sim->step();
    const double give = motor_give(kWheelI * 3.0 / 0.01, 0.01);  // the first step's torque
    EXPECT_NEAR(sim->velocities()[0].angular.z(), 3.0, give) << "step " << n;
    EXPECT_NEAR(std::remainder(wheel_angle(*sim) - 3.0 * 0.01 * n, 2 * M_PI), 0.0, 0.01 * give) << "step " << n;
  }
}

TEST(CompliantDrives, HingeMotorAtItsTorqueLimitSpinsUpAtTorqueOverInertia) {
  // τ = 0.05 N·m on I = 0.05 kg·m²: α = 1 rad/s², so 3 rad/s is reached after 3 s and then held.
  const double h = 0.01, tau = 0.05, target = 3.0;
  Scene s = wheel(h);
  s.joints[0].motor = MotorDef{target, tau};
  const auto sim = make_simulator(s);
  int held = 0;
  for (int n = 1; n <= 400; ++n) {
    sim->step();
    const double expected = std::min(n * h * tau / kWheelI, target);
    EXPECT_NEAR(sim->velocities()[0].angular.z(), expected, 1e-9) << "step " << n;
    held += expected == target;
  }
  EXPECT_GT(held, 50) << "the motor never reached its speed";
}

TEST(CompliantDrives, TorqueLimitedMotorDrivesAWheelIntoItsHingeLimitAndRestsThere) {
  // α = τ/I = 1 rad/s² up to the limit at 30°: implicit Euler gives ω_n = nhα, θ_n = h²α n(n + 1)/2 until
  // the limit row becomes active; from then on the limit holds the wheel against the motor's full τ.
  const double h = 0.01, tau = 0.05, limit = 30.0 * M_PI / 180.0;
  Scene s = wheel(h);
  s.joints[0].motor = MotorDef{3.0, tau};
  s.joints[0].angle_limits = AngleRange{-1.0, limit};
  const auto sim = make_simulator(s);
  int arrived = 0;
  for (int n = 1; n <= 200; ++n) {
    sim->step();
    const double theta = h * h * (tau / kWheelI) * n * (n + 1) / 2.0;
    if (theta < limit - 0.05) {  // far from the limit (its rows join within 0.05 rad): free spin-up
      EXPECT_NEAR(sim->velocities()[0].angular.z(), n * h * tau / kWheelI, 1e-9) << "step " << n;
      EXPECT_NEAR(wheel_angle(*sim), theta, 1e-9) << "step " << n;
    }
    EXPECT_LE(wheel_angle(*sim), limit + 1e-6) << "step " << n;
    if (n * h > 1.2) {  // θ would be 0.73 rad > 30°: resting on the limit
      EXPECT_NEAR(wheel_angle(*sim), limit, 1e-6) << "step " << n;
      EXPECT_NEAR(sim->velocities()[0].angular.z(), 0.0, 1e-6) << "step " << n;
      // The limit takes the motor's full torque, and no more.
      EXPECT_NEAR(dynamic_cast<const CompliantSimulator&>(*sim).limit_forces()[0], tau, 1e-9) << "step " << n;
      ++arrived;
    }
  }
  EXPECT_GT(arrived, 50);
}

/// The hostile pass's scene (motor_hinge_limits.json): a 1 kg, 0.2 m box whose centre is ℓ = 0.1 m from a
/// hinge about the world y axis, limited to ±10°, a motor on it. The twist θ turns the centre to
/// ℓ(cos θ, 0, −sin θ): gravity's torque m g ℓ cos θ drives θ up, into the +10° limit, as the motor does.
constexpr double kArm = 0.1, kArmMass = 1.0, kArmI = kArmMass * (kArm * kArm + 2 * 0.2 * 0.2 / 12.0);
constexpr double kArmLimit = 10.0 * M_PI / 180.0;
Scene limited_arm(double h, const MotorDef& motor) {
  BodyDef b = test::box_body("a", Vec3(0.2, 0.2, 0.2), Vec3(kArm, 0, 0));
  b.mass = kArmMass;
  Scene s = compliant_scene({b}, h, Vec3(0, 0, -kG));
  JointDef& j = test::add_joint(s, JointType::hinge, "a", "world");
  j.anchor = Vec3::Zero();
  j.axis = Vec3::UnitY();
  j.angle_limits = AngleRange{-kArmLimit, kArmLimit};
  j.motor = motor;
  return s;
}
double arm_angle(const Simulator& sim) {
  const Mat3& A = sim.poses()[0].A;
  return std::atan2(-A(2, 0), A(0, 0));
}

TEST(CompliantDrives, UnboundedMotorIntoAHingeLimitStopsOnItWithTheEnergyOfOneStep) {
  // Before: the motor row (ṡ = 100 rad/s, rigid) and the limit row (s ≤ 10°, rigid) had no common
  // solution; the body froze at 4.56° and the step's stats alternated 83 J / 12 J of kinetic and 5·10¹¹ J
  // of potential energy. Now the motor's rate is cut to θ₁ = 10° − ε in one step, ω₁ = θ₁/h, which
  // gives the most kinetic energy the motor ever supplies, ½Iω₁²; then the arm rests on the limit, its
  // potential energy gravity's alone, −m g ℓ sin 10°.
  const double h = 0.01;
  const auto sim = make_simulator(limited_arm(h, MotorDef{100.0}));
  const double first_ke = 0.5 * kArmI * std::pow(kArmLimit / h, 2);
  for (int n = 1; n <= 200; ++n) {
    const StepStats stats = sim->step();
    EXPECT_LE(arm_angle(*sim), kArmLimit + 1e-9) << "step " << n;
    EXPECT_LE(stats.kinetic_energy, first_ke * (1 + 1e-6)) << "step " << n;
    // The first step's drift moves the centre along the tangent, c += hv, and the projection back onto
    // the hinge leaves it short of the limit by the chord's O((hω)²) (10⁻³ rad); later steps close that
    // by half each.
    if (n >= 15) {
      EXPECT_NEAR(arm_angle(*sim), kArmLimit - kMotorLimitInside, 1e-9) << "step " << n;
      EXPECT_LT(stats.kinetic_energy, 1e-12) << "step " << n;
      EXPECT_NEAR(stats.potential_energy, -kArmMass * kG * kArm * std::sin(kArmLimit - kMotorLimitInside), 1e-9)
          << "step " << n;
    }
  }
}

TEST(CompliantDrives, BoundedMotorPressesOnAHingeLimitWithExactlyItsTorque) {
  // max_force F = 0.5 N·m: at rest on the +10° limit the limit holds the motor's F and gravity's
  // m g ℓ cos 10° together.
  const double h = 0.01, F = 0.5;
  const auto sim = make_simulator(limited_arm(h, MotorDef{100.0, F}));
  for (int n = 0; n < 100; ++n) sim->step();
  for (int n = 0; n < 100; ++n) {
    const StepStats stats = sim->step();
    EXPECT_NEAR(arm_angle(*sim), kArmLimit, 1e-6);
    EXPECT_LT(stats.kinetic_energy, 1e-12);
    EXPECT_NEAR(dynamic_cast<const CompliantSimulator&>(*sim).limit_forces()[0],
                F + kArmMass * kG * kArm * std::cos(kArmLimit), 1e-6);
  }
}

TEST(CompliantDrives, FastMotorOrTorqueAtLargeStepsRestsOnTheNearStopWithoutChatter) {
  // hostile16 #3 and #4. At h = 0.1 a 5 N·m torque on I = 0.0167 kg·m² turns the arm 3 rad in the first
  // free step, past 180°: with the limit rows chosen by the start rate alone (0) the stop was not in the
  // step, and atan2 then read the angle just past −10°, pinning the arm on the far stop. A bounded motor
  // at h = 0.05–0.1 chattered between the stop and 6–12° when its row dropped out as the arm bounced off.
  // Every case must end on the near stop, +10°, at rest, the limit holding the drive and gravity
  // (F + m g ℓ cos 10°), and never be seen beyond either stop.
  struct Case {
    double h;
    MotorDef motor;  // velocity −1: the servo below instead
    double torque;   // an applied torque about the hinge instead of the motor
  };
  for (const Case& c : {Case{0.1, MotorDef{0.0, 0.0}, 5.0}, Case{0.1, MotorDef{100.0, 5.0}, 0.0},
                        Case{0.05, MotorDef{100.0, 5.0}, 0.0}, Case{0.1, MotorDef{10.0, 50.0}, 0.0},
                        Case{0.1, MotorDef{-1.0, 5.0}, 0.0}}) {
    Scene s = limited_arm(c.h, c.motor);
    if (c.motor.max_force == 0.0) s.joints[0].motor.reset();
    if (c.motor.velocity < 0.0) {  // servo_beyond: a servo to 3 rad, k = 1000, max_force 5, past the stop
      s.joints[0].motor.reset();
      s.joints[0].servo = ServoDef{3.0, 1000.0, 0.0, 5.0};
    }
    if (c.torque != 0.0) {
      ForceDef push;
      push.body = "a";
      push.body_index = 0;
      push.torque = Vec3(0, c.torque, 0);
      s.forces = {push};
    }
    const auto sim = make_simulator(s);
    const double held =
        (c.motor.max_force == 0.0 ? c.torque : c.motor.max_force) + kArmMass * kG * kArm * std::cos(kArmLimit);
    const int steps = static_cast<int>(std::lround(2.0 / c.h));
    for (int n = 1; n <= steps; ++n) {
      const StepStats stats = sim->step();
      const std::string at =
          "h " + std::to_string(c.h) + " motor " + std::to_string(c.motor.velocity) + " step " + std::to_string(n);
      // Driven up from 0 every step: on the far stop (−10°) or anywhere below 0 is the wrap.
      EXPECT_GE(arm_angle(*sim), -1e-6) << at;
      EXPECT_LE(arm_angle(*sim), kArmLimit + 1e-6) << at;
      if (n * c.h >= 1.0) {
        EXPECT_NEAR(arm_angle(*sim), kArmLimit, 1e-6) << at;
        EXPECT_LT(stats.kinetic_energy, 1e-12) << at;
        EXPECT_NEAR(dynamic_cast<const CompliantSimulator&>(*sim).limit_forces()[0], held, 1e-6 * held) << at;
      }
    }
  }
}

TEST(CompliantDrives, ServoFollowsTheImplicitPDRecurrenceFarPastTheExplicitBound) {
  // k = 10⁴ N·m/rad on I = 0.05 kg·m² at h = 0.05 s: h²k/I = 500, a hundred times the explicit (and
  // symplectic Euler, Andrews Eq. 9) bound 4. The implicit PD step is the recurrence below, exactly.
  const double h = 0.05, k = 1e4, d = 20.0, target = 1.0;
  Scene s = wheel(h);
  s.joints[0].servo = ServoDef{target, k, d};
  const auto sim = make_simulator(s);
  double theta = 0.0, omega = 0.0;
  for (int n = 1; n <= 100; ++n) {
    sim->step();
    omega = (kWheelI * omega - h * k * (theta - target)) / (kWheelI + h * h * k + h * d);
    theta += h * omega;
    EXPECT_NEAR(sim->velocities()[0].angular.z(), omega, 1e-7 * (1.0 + std::abs(omega))) << "step " << n;
    EXPECT_NEAR(wheel_angle(*sim), theta, 1e-9) << "step " << n;
  }
  EXPECT_NEAR(theta, target, 1e-6) << "the recurrence itself settles at the set point";
}

TEST(CompliantDrives, ServoHoldsAPendulumWhereItsTorqueBalancesGravity) {
  // A 2 kg rod of 1 m hinged at its top end about y, hanging down; the servo's set point is 0.5 rad.
  // At rest k(θ* − θ) = m g ℓ sin θ, ℓ = 0.5 m (gravity's torque about +y is −m g ℓ sin θ): the
  // static deflection θ* − θ ≈ m g ℓ sin θ / k. Solved by Newton here; the implicit PD holds it exactly.
  const double h = 0.01, m = 2.0, L = 1.0, ell = 0.5 * L, k = 50.0, d = 8.0, target = 0.5;
  BodyDef rod = test::box_body("rod", Vec3(0.05, 0.05, L), Vec3(0, 0, -ell));
  rod.mass = m;
  Scene s = compliant_scene({rod}, h, Vec3(0, 0, -kG));
  JointDef& j = test::add_joint(s, JointType::hinge, "rod", "world");
  j.anchor = Vec3::Zero();
  j.axis = Vec3::UnitY();
  j.servo = ServoDef{target, k, d};
  double theta_eq = target;
  for (int it = 0; it < 50; ++it)
    theta_eq -= (k * (theta_eq - target) + m * kG * ell * std::sin(theta_eq)) / (k + m * kG * ell * std::cos(theta_eq));
  const auto sim = make_simulator(s);
  for (int n = 0; n < 1000; ++n) sim->step();
  const Vec3 c = sim->poses()[0].p;  // the rod's centre: ℓ(−sin θ, 0, −cos θ)
  const double theta = std::atan2(-c.x(), -c.z());
  std::printf("servo pendulum: θ = %.9f rad, equilibrium %.9f rad, deflection from θ* %.6f rad\n", theta, theta_eq,
              target - theta_eq);
  EXPECT_GT(target - theta_eq, 0.05) << "the test needs a visible deflection";
  EXPECT_NEAR(theta, theta_eq, 1e-6);
  EXPECT_NEAR(sim->velocities()[0].angular.norm(), 0.0, 1e-6);
}

TEST(CompliantDrives, LuffingCraneServoRaisesTheLoadedBoomToItsSetPointLessTheStaticSag) {
  // examples/compliant/luffing_crane.json: the 100 t boom of the crane on its hinge about y, 20° up, a
  // 15 t load on twenty 0.2 kg cable links from its tip; the hinge servo's set point s* = −20° (raise
  // it to 40°), k = 10⁹ N·m/rad, max_force 2·10⁷ N·m. At rest k(s − s*) = τ(s), gravity's torque about
  // +y, τ = g Σ m x: the boom's centre and the hanging mass at the cable's anchor, both turned by s
  // about the hinge. Solved by Newton; after 10 s the boom swings with the load by a few 0.01°.
  const Scene scene = load_scene(std::string(AFFIX_SOURCE_DIR) + "/examples/compliant/luffing_crane.json");
  const auto model = test::compiled(scene, "compliant");
  const int boom = *scene.body_index("boom");
  const JointDef& hinge = scene.joints[0];
  ASSERT_TRUE(hinge.servo.has_value());
  double hanging = 0.0;
  for (std::size_t b = 0; b < model->bodies.size(); ++b)
    if (static_cast<int>(b) != boom) hanging += model->bodies[b].mass;
  const Vec3 centre = model->bodies[boom].position, anchor = scene.joints[1].anchor;
  const double m_boom = model->bodies[boom].mass, k = hinge.servo->stiffness, target = hinge.servo->position;
  const auto x_at = [](const Vec3& p, double s) { return std::cos(s) * p.x() + std::sin(s) * p.z(); };  // R_y(s) p
  const auto dx_at = [](const Vec3& p, double s) { return -std::sin(s) * p.x() + std::cos(s) * p.z(); };
  double s = target;
  for (int it = 0; it < 50; ++it) {
    const double f = k * (s - target) - kG * (m_boom * x_at(centre, s) + hanging * x_at(anchor, s));
    const double df = k - kG * (m_boom * dx_at(centre, s) + hanging * dx_at(anchor, s));
    s -= f / df;
  }
  const auto sim = make_simulator(model);
  for (int n = 0; n < 1000; ++n) sim->step();
  const Mat3 turn = sim->poses()[boom].A * model->bodies[boom].rotation.transpose();  // R_y(s): (0, 2) = sin s
  const double angle = std::atan2(turn(0, 2), turn(0, 0));
  std::printf("luffing crane: hinge angle %.4f°, static equilibrium %.4f°, set point %.4f° (sag %.4f°)\n",
              angle * 180 / M_PI, s * 180 / M_PI, target * 180 / M_PI, (s - target) * 180 / M_PI);
  EXPECT_GT(s - target, 0.005) << "the test needs a visible sag";
  EXPECT_NEAR(angle, s, 1e-3);
}

/// A 10 kg box on a vertical prismatic joint to the world (slide along +z), a motor on it.
Scene lift(double dt, const MotorDef& motor) {
  BodyDef b = test::box_body("load", Vec3(0.3, 0.3, 0.3), Vec3(0, 0, 1));
  b.mass = 10.0;
  Scene s = compliant_scene({b}, dt, Vec3(0, 0, -kG));
  JointDef& j = test::add_joint(s, JointType::prismatic, "load", "world");
  j.anchor = Vec3(0, 0, 1);
  j.axis = Vec3::UnitZ();
  j.motor = motor;
  return s;
}

TEST(CompliantDrives, PrismaticMotorTooWeakForItsLoadLetsItSlipAtGravityLessForceOverMass) {
  // F = 60 N against m g = 98.1 N: the load accelerates down at g − F/m = 3.81 m/s², exactly, from the
  // first step (the bound binds throughout).
  const double h = 0.01, m = 10.0, F = 60.0;
  const auto sim = make_simulator(lift(h, MotorDef{0.0, F}));
  for (int n = 1; n <= 200; ++n) {
    sim->step();
    EXPECT_NEAR(sim->velocities()[0].linear.z(), -n * h * (kG - F / m), 1e-9) << "step " << n;
  }
}

TEST(CompliantDrives, PrismaticMotorStrongEnoughHoldsItsLoadAndLiftsItAtItsSpeed) {
  const double h = 0.01;
  const auto hold = make_simulator(lift(h, MotorDef{0.0, 120.0}));
  const auto raise = make_simulator(lift(h, MotorDef{0.5, 1e4}));
  for (int n = 1; n <= 100; ++n) {
    hold->step();
    raise->step();
    const double give = motor_give(10.0 * kG, h);  // the load's weight (the first lift step: + m·0.5/h)
    EXPECT_NEAR(hold->velocities()[0].linear.z(), 0.0, give) << "step " << n;
    EXPECT_NEAR(raise->velocities()[0].linear.z(), 0.5, n == 1 ? motor_give(10.0 * (kG + 0.5 / h), h) : give)
        << "step " << n;
  }
  EXPECT_NEAR(hold->poses()[0].p.z(), 1.0, 100 * h * motor_give(10.0 * kG, h));
  EXPECT_NEAR(raise->poses()[0].p.z(), 1.5, 100 * h * motor_give(10.0 * (kG + 0.5 / h), h));
}

}  // namespace
}  // namespace affix
