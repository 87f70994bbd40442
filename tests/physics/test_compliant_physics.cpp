// The compliant solver (Andrews 2017) on the scenes its paper is about, and against closed forms:
// a pendulum's small-amplitude period; the 1,000,000:1 mass-ratio chain at h = 0.1 s (§1, abstract);
// a 100 kg load on a light cable (Fig. 8, on ball joints and on flexible `cable` joints); the crane of
// Fig. 1 and 11 at h = 0.1, 0.01 and 0.001 s on a flexible cable (on a limp chain, and on a limp cable
// whose axial rows go slack: disabled, known failures with their diagnosis, below); a load thrown up on a
// slack cable joint against free flight; the low-rank and full-rank M̃⁻¹ giving the same
// motion (§3). "Stable" is measured: every state finite, the total energy never above its start
// (nothing in these scenes adds energy), and the joints' anchors together within a stated bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <optional>

#include "affix/solvers/compliant/compliant_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

/// The energy at t = 0 of a scene that starts at rest: kinetic 0, gravity's −Σ m g·c.
double energy_at_rest(const Model& model, const Vec3& gravity) {
  double e = 0.0;
  for (const ModelBody& b : model.bodies) e -= b.mass * gravity.dot(b.position + b.rotation * b.center_of_mass);
  return e;
}

constexpr double kG = 9.81;

BodyDef box(const std::string& name, const Vec3& size, const Vec3& position, double mass) {
  BodyDef b = test::box_body(name, size, position);
  b.mass = mass;
  return b;
}

Scene compliant_scene(std::vector<BodyDef> bodies, double dt, const nlohmann::json& settings = nlohmann::json::object()) {
  Scene s = test::scene_with(std::move(bodies), dt, std::nullopt);
  s.settings.solver = "compliant";
  if (!settings.empty()) s.settings.solver_settings["compliant"] = settings;
  return s;
}

/// What a run measured: the largest anchor gap, the largest rise of the total energy above its start.
struct RunReport {
  double max_gap = 0.0, max_energy_rise = -INFINITY, energy0 = 0.0, last_energy = 0.0, median_ms = 0.0;
  int steps = 0;
};

/// `each_step` sees every step's records as well (for measures the report does not keep).
RunReport run(const Scene& scene, double duration,
              const std::function<void(const Model&, const Simulator&, const StepStats&)>& each_step = {}) {
  const auto model = std::make_shared<const Model>(compile(scene));
  const auto sim = make_simulator(model);
  RunReport r;
  r.energy0 = energy_at_rest(*model, scene.settings.gravity);
  const int steps = static_cast<int>(std::lround(duration / scene.settings.dt));
  std::vector<double> ms;
  for (int n = 0; n < steps; ++n) {
    const StepStats s = sim->step();
    const double energy = s.kinetic_energy + s.potential_energy;
    EXPECT_TRUE(std::isfinite(energy)) << "step " << n;
    r.max_energy_rise = std::max(r.max_energy_rise, energy - r.energy0);
    r.max_gap = std::max(r.max_gap, test::max_anchor_gap(*model, sim->joint_records()));
    r.last_energy = energy;
    ms.push_back(s.wall_ms);
    if (each_step) each_step(*model, *sim, s);
  }
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  r.median_ms = ms[ms.size() / 2];
  r.steps = steps;
  return r;
}

/// A chain of `links` boxes of `link_mass` hanging from the world at the origin, tilted by `tilt` from
/// the vertical in the xz-plane, with a `load_mass` cube of edge `load_size` at its end (none for 0);
/// ball joints.
Scene hanging_chain(int links, double link_length, double link_mass, double load_mass, double load_size,
                    double tilt, double dt, const nlohmann::json& settings = nlohmann::json::object()) {
  const Vec3 down(std::sin(tilt), 0.0, -std::cos(tilt));
  const Quat rotation = Quat::FromTwoVectors(Vec3::UnitZ(), -down);
  std::vector<BodyDef> bodies;
  for (int k = 0; k < links; ++k) {
    BodyDef b = box("link" + std::to_string(k), Vec3(0.02, 0.02, link_length), (k + 0.5) * link_length * down, link_mass);
    b.rotation = rotation;
    bodies.push_back(b);
  }
  if (load_mass > 0.0) {
    BodyDef load = box("load", Vec3::Constant(load_size), (links * link_length + 0.5 * load_size) * down, load_mass);
    load.rotation = rotation;
    bodies.push_back(load);
  }
  Scene scene = compliant_scene(bodies, dt, settings);
  for (int k = 0; k < links + (load_mass > 0.0 ? 1 : 0); ++k) {
    const std::string above = k == 0 ? "world" : "link" + std::to_string(k - 1);
    test::add_joint(scene, JointType::ball, k < links ? "link" + std::to_string(k) : "load", above).anchor =
        k * link_length * down;
  }
  return scene;
}

TEST(CompliantPhysics, SmallAmplitudePendulumHasThePeriodOfItsPhysicalPendulum) {
  // A 0.02 × 0.02 × 1 m rod on a ball joint at its top end, 3° off the vertical: T = 2π √(I_p / (m g d)),
  // I_p = m(L² + w²)/12 + m d², d = L/2; the large-amplitude factor at 3° is 1 + θ²/16 = 1.0002.
  const double L = 1.0, w = 0.02, theta = 3.0 * std::numbers::pi / 180.0, dt = 1e-3;
  const Scene scene = hanging_chain(1, L, 1.0, 0.0, 0.0, theta, dt, {{"stabilization", "none"}});
  const auto sim = make_simulator(scene);
  const double d = 0.5 * L, I = (L * L + w * w) / 12.0 + d * d;
  const double period = 2.0 * std::numbers::pi * std::sqrt(I / (kG * d)) * (1.0 + theta * theta / 16.0);
  // Zero crossings of the rod's x velocity: every half period.
  std::vector<double> crossings;
  double last = 0.0;
  while (sim->time() < 2.2 * period) {
    sim->step();
    const double vx = sim->velocities()[0].linear.x();
    if (sim->step_count() > 1 && (vx > 0) != (last > 0)) crossings.push_back(sim->time());
    last = vx;
  }
  ASSERT_GE(crossings.size(), 4u);
  const double measured = crossings[3] - crossings[1];
  std::printf("pendulum period: measured %.4f s, closed form %.4f s\n", measured, period);
  EXPECT_NEAR(measured, period, 0.005 * period);
}

TEST(CompliantPhysics, PendulumReleasedFromTheHorizontalKeepsItsSwingAndPeriodAtSixtyHertz) {
  // The rod of the test above released from 90° at h = 1/60, default settings, 20 s (about ten periods).
  // Closed form: the energy is conserved, and T = T₀ · 2K(k)/π with k = sin 45°, K(k) = π / (2 AGM(1, cos 45°)).
  // Before the energy guard compared shadow energies (step_energy.hpp, gravity_shadow) it read the
  // ½hm g·v swing of E as a gain on a third of the steps, took their curvature terms back, and the
  // projection's corrections then cost the swing 48 % of its peak kinetic energy over 20 s.
  const double L = 1.0, w = 0.02, dt = 1.0 / 60.0;
  const Scene scene = hanging_chain(1, L, 1.0, 0.0, 0.0, std::numbers::pi / 2, dt);
  const double d = 0.5 * L, I = (L * L + w * w) / 12.0 + d * d;
  const double k = std::sin(std::numbers::pi / 4);
  const double period = 2.0 * std::numbers::pi * std::sqrt(I / (kG * d)) /
                        test::arithmetic_geometric_mean(1.0, std::sqrt(1.0 - k * k));
  const double duration = 20.0;
  double first = 0.0, last = 0.0, previous_vx = 0.0;
  std::vector<double> crossings;  // the rod's x velocity changes sign at each end of the swing
  run(scene, duration, [&](const Model&, const Simulator& sim, const StepStats& s) {
    if (sim.time() < 0.25 * duration) first = std::max(first, s.kinetic_energy);
    if (sim.time() > 0.75 * duration) last = std::max(last, s.kinetic_energy);
    const double vx = sim.velocities()[0].linear.x();
    if (sim.step_count() > 1 && (vx > 0) != (previous_vx > 0)) crossings.push_back(sim.time());
    previous_vx = vx;
  });
  ASSERT_GE(crossings.size(), 6u);
  const double measured = 2.0 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  std::printf("pendulum from 90 deg at h = 1/60: peak kinetic energy %.4f J in the first 5 s, %.4f J in the last 5 s; "
              "period %.4f s, closed form %.4f s\n", first, last, measured, period);
  EXPECT_GT(last, 0.95 * first);
  EXPECT_NEAR(measured, period, 0.01 * period);
}

// The step sizes: h = 1/60, 0.05 and 0.1 s.
std::string step_name(const ::testing::TestParamInfo<double>& info) {
  return "h" + std::to_string(static_cast<int>(std::lround(1000 * info.param))) + "ms";
}

// A 1 t block on a chain of ten 1 g links (1,000,000:1), released 30° off the vertical, 20 s at default
// settings (examples/compliant/mass_ratio_chain.json). Before the projection's fallback metric
// M + h²K_d (compliant_simulator.cpp, substep) the default projection folded the light links instead of
// moving the block, stalled at every halving depth and tore the chain (exit 1 at step 20 at h = 0.1, 103
// at 0.05); it held only with `projection_iterations` 0. Nothing here does work on the chain, so the total
// energy (kinetic and gravity, from the run's records) never rises above its start, and the anchors stay
// within the solver's joint_gap of 1 mm.
class MassRatioChain : public ::testing::TestWithParam<double> {};

TEST_P(MassRatioChain, MillionToOneStaysTogetherAndNeverGainsEnergyAtDefaultSettings) {
  const double h = GetParam();
  const Scene scene = hanging_chain(10, 0.1, 1e-3, 1000.0, 0.5, std::numbers::pi / 6, h);
  const RunReport r = run(scene, 20.0);
  std::printf("mass ratio 1e6:1, h = %.4f: max anchor gap %.3e m, max energy rise %.3e J of %.3e J, median %.3f ms\n", h,
              r.max_gap, r.max_energy_rise, std::abs(r.energy0), r.median_ms);
  EXPECT_LT(r.max_gap, 1e-3);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
  EXPECT_LT(r.last_energy, r.energy0) << "the chain did not swing";
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, MassRatioChain, ::testing::Values(0.1, 0.05, 1.0 / 60.0), step_name);

TEST(CompliantPhysics, MassRatioOfAMillionToOneChainStaysStableWithoutTheProjection) {
  // The paper's step alone (no post-step projection, settings.compliant.projection_iterations 0) holds the
  // same chain at h = 0.1 s with inertial damping (the default).
  const Scene scene = hanging_chain(10, 0.1, 1e-3, 1000.0, 0.5, std::numbers::pi / 6, 0.1, {{"projection_iterations", 0}});
  const RunReport r = run(scene, 20.0);
  std::printf("mass ratio 1e6:1, h = 0.1, no projection: max anchor gap %.3e m, max energy rise %.3e J of %.3e J\n",
              r.max_gap, r.max_energy_rise, std::abs(r.energy0));
  EXPECT_LT(r.max_gap, 1e-2);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
}

/// The crane of Andrews Fig. 1 and 11: a 100 t boom, 20 m long, hinged to the world at its foot and
/// elevated 20°, a cable of 0.2 kg links (ten of 0.5 m) from its tip, and a 15 t load; dropped from rest.
/// The cable's joints are ball joints (a limp chain) or, as in the paper ("the cable uses relaxed rigid
/// joints", axial stiffness 10¹⁰), `cable` joints with the given bending and torsion stiffness.
Scene crane(double dt, std::optional<double> cable_bending = std::nullopt,
            const nlohmann::json& settings = nlohmann::json::object()) {
  const double elevation = 20.0 * std::numbers::pi / 180.0, length = 20.0;
  const Vec3 along(std::cos(elevation), 0.0, std::sin(elevation));
  BodyDef boom = box("boom", Vec3(length, 1.0, 1.0), 0.5 * length * along, 1e5);
  boom.rotation = Quat(Eigen::AngleAxisd(-elevation, Vec3::UnitY()));
  std::vector<BodyDef> bodies{boom};
  // The cable hangs from a point 0.6 m beyond the boom's end face (outside the boom, which a cable
  // hanging from the end's centre line would cross).
  const Vec3 tip = length * along + Vec3(0.6, 0.0, 0.0);
  const int links = 10;
  const double link = 0.5;
  for (int k = 0; k < links; ++k)
    bodies.push_back(box("cable" + std::to_string(k), Vec3(0.05, 0.05, link), tip - Vec3(0, 0, (k + 0.5) * link), 0.2));
  bodies.push_back(box("load", Vec3(2.0, 2.0, 1.0), tip - Vec3(0, 0, links * link + 0.5), 1.5e4));
  Scene scene = compliant_scene(bodies, dt, settings);
  JointDef& hinge = test::add_joint(scene, JointType::hinge, "boom", "world");
  hinge.anchor = Vec3::Zero();
  hinge.axis = Vec3::UnitY();
  for (int k = 0; k <= links; ++k) {
    const std::string above = k == 0 ? "boom" : "cable" + std::to_string(k - 1);
    JointDef& j = test::add_joint(scene, cable_bending ? JointType::cable : JointType::ball,
                                  k < links ? "cable" + std::to_string(k) : "load", above);
    j.anchor = tip - Vec3(0, 0, k * link);
    if (cable_bending) {
      j.axis = -Vec3::UnitZ();
      j.axial = j.shear = {1e10, 0.0};
      j.bending = j.torsion = {*cable_bending, 0.0};
    }
  }
  return scene;
}

class Crane : public ::testing::TestWithParam<double> {};

TEST_P(Crane, DroppedFromTwentyDegreesOnAFlexibleCableStaysStableForTwentySeconds) {
  // The boom's tip falls faster than g at the release (a rod hinged at its foot: 1.5 g cos²20° before
  // the load's share, 1.19 g with it), so the cable is pushed, not pulled, at first: 3.8·10⁴ N. A cable
  // of relaxed 6-D joints holds that push while each joint's buckling load k/ℓ exceeds it; bending and
  // torsion stiffness 10⁶ N·m/rad (2·10⁶ N at ℓ = 0.5 m) does, so the cable swings as a flexible whole.
  const double dt = GetParam();
  const RunReport r = run(crane(dt, 1e6), 20.0);
  std::printf("crane on a flexible cable, h = %g: max anchor gap %.3e m, max energy rise %.3e J of %.3e J, energy at "
              "20 s %.4e J, median %.3f ms/step\n", dt, r.max_gap, r.max_energy_rise, std::abs(r.energy0), r.last_energy,
              r.median_ms);
  EXPECT_LT(r.max_gap, 0.01);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
}

/// What a run on slack cable joints measured (from the joint records, each anchor carried by its own
/// body): the largest anchor gap across the cable's axis, the largest stretch along it (the anchors
/// parting; a slack joint may shorten freely), the largest rise of the total energy above its start.
struct SlackReport {
  double max_off_axis = 0.0, max_stretch = 0.0, max_shortening = 0.0, max_energy_rise = -INFINITY, energy0 = 0.0,
         last_energy = 0.0, median_ms = 0.0;
  int max_sweeps = 0;
};

SlackReport run_slack(const Scene& scene, double duration) {
  SlackReport r;
  const RunReport run_report = run(scene, duration, [&](const Model& model, const Simulator& sim, const StepStats& s) {
    r.max_sweeps = std::max(r.max_sweeps, s.iterations);
    for (const JointRecord& j : sim.joint_records()) {
      if (model.joints[j.joint].def.type != JointType::cable) continue;
      // The crane's cable runs down from body2 to body1 along axis2 (σ = +1: stretch is d·axis2).
      const Vec3 d = j.anchor1 - j.anchor2;
      const double along = d.dot(j.axis2);
      r.max_off_axis = std::max(r.max_off_axis, (d - along * j.axis2).norm());
      r.max_stretch = std::max(r.max_stretch, along);
      r.max_shortening = std::max(r.max_shortening, -along);
    }
  });
  r.max_energy_rise = run_report.max_energy_rise;
  r.energy0 = run_report.energy0;
  r.last_energy = run_report.last_energy;
  r.median_ms = run_report.median_ms;
  return r;
}

// The crane on a limp cable: `cable` joints with the paper's Fig. 8 bending and torsion stiffness 10
// N·m/rad whose axial rows are slack (`settings.compliant.slack_cables`: they pull, never push). Without
// slack the release's push (above) buckles this cable within 0.1 s, the folded chain whips and, snapping
// taut (λ 10² → 10⁶ N in a step), turns its links at ~10⁸ rad/s², which no step resolved (anchor gaps of
// metres, the energy fed by −φ/h). Known failure, disabled with the reason: slack axial rows do not make
// it stable either. Measured (this branch): the cable no longer buckles, but a slack joint's other five
// rows stay bilateral, so it is a prismatic joint that is free in compression: the 0.2 kg links slide
// along their axes without bound (shortening of 4·10³ to 9·10⁴ m over the 20 s at h = 0.1, 0.01, 0.001),
// taut joints stretch by 0.14–0.30 m, joints part across the axis by 0.1–17 m, and at h = 0.001 the energy
// rises by 1.1·10⁷ J. A slack cable needs a limit in compression too (a rope's links cannot pass each
// other): it has one since issue 15 (model/slack_cable.hpp), and the crane still diverges (h = 0.1:
// joints 39 m apart across the axis, the energy up by 1.2·10⁸ J; h = 0.01: a SimulationError): the
// release's push still folds the limp cable, and snapping taut is what no step resolves.
Scene limp_crane(double dt) { return crane(dt, 10.0, {{"slack_cables", true}}); }

TEST_P(Crane, DISABLED_DroppedFromTwentyDegreesOnALimpCableStaysStableForTwentySeconds) {
  const double dt = GetParam();
  const SlackReport r = run_slack(limp_crane(dt), 20.0);
  std::printf("crane on a limp (slack) cable, h = %g: max off-axis gap %.3e m, max stretch %.3e m, max shortening "
              "%.3e m, max energy rise %.3e J of %.3e J, energy at 20 s %.4e J, median %.3f ms/step, at most %d PGS "
              "sweeps\n",
              dt, r.max_off_axis, r.max_stretch, r.max_shortening, r.max_energy_rise, std::abs(r.energy0), r.last_energy,
              r.median_ms, r.max_sweeps);
  EXPECT_LT(r.max_off_axis, 0.01);
  EXPECT_LT(r.max_stretch, 0.01);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
}

// Known failure, disabled with the reason: on a limp chain of *ball* joints (no axis that could go slack)
// the crane still diverges at every h, as diagnosed above: the release pushes the chain, it buckles, whips
// and snaps taut at ~10⁸ rad/s². The limp cable above (slack axial rows) is the fix the paper's cable
// joint allows; a chain of ball joints would need its point rows to go slack as a distance limit does.
TEST_P(Crane, DISABLED_DroppedFromTwentyDegreesOnALimpChainStaysStableForTwentySeconds) {
  const double dt = GetParam();
  const RunReport r = run(crane(dt), 20.0);
  std::printf("crane, h = %g: max anchor gap %.3e m, max energy rise %.3e J of %.3e J, energy at 20 s %.4e J, "
              "median %.3f ms/step\n", dt, r.max_gap, r.max_energy_rise, std::abs(r.energy0), r.last_energy, r.median_ms);
  EXPECT_LT(r.max_gap, 0.05);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
}

TEST(CompliantPhysics, LoadThrownUpOnASlackCableFliesFreelyAndIsCaughtWhereItStarted) {
  // A 10 kg load hanging from the world on one `cable` joint (axis down), thrown straight up at 2 m/s.
  // Slack: the axial row never pushes, so the load flies freely, z(t) = z₀ + v₀t − ½gt², until it falls
  // back to its start at t = 2v₀/g, where the cable catches it (an inelastic stop) and holds it. Not
  // slack: the same joint holds the load where it is (a rod).
  const double dt = 0.01, v0 = 2.0, z0 = -0.5;
  for (const bool slack : {true, false}) {
    BodyDef load = box("load", Vec3::Constant(0.2), Vec3(0, 0, z0), 10.0);
    load.velocity = Vec3(0, 0, v0);
    Scene scene = compliant_scene({load}, dt, {{"slack_cables", slack}});
    JointDef& j = test::add_joint(scene, JointType::cable, "load", "world");
    j.anchor = Vec3(0, 0, z0 + 0.1);
    j.axis = -Vec3::UnitZ();
    const auto sim = test::simulate(scene, "compliant");
    double worst = 0.0;  // slack: the largest |z − free flight| before the catch
    const double t_catch = 2.0 * v0 / kG;
    for (int n = 1; n <= 60; ++n) {
      sim->step();
      const double t = n * dt, z = sim->poses()[0].p.z();
      if (!slack) {
        ASSERT_NEAR(z, z0, 1e-3) << "step " << n;
      } else if (t < t_catch - dt) {
        // The free flight of implicit Euler's velocity update: z_n = z₀ + v₀t − ½g t (t + h).
        worst = std::max(worst, std::abs(z - (z0 + v0 * t - 0.5 * kG * t * (t + dt))));
      } else if (t > t_catch + 2 * dt) {
        ASSERT_NEAR(z, z0, 1e-3) << "caught, step " << n;
        ASSERT_LT(std::abs(sim->velocities()[0].linear.z()), 1e-3) << "caught, step " << n;
      }
    }
    if (slack) {
      std::printf("slack cable: largest departure from free flight %.3e m before the catch at %.3f s\n", worst, t_catch);
      EXPECT_LT(worst, 1e-9);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, Crane, ::testing::Values(0.1, 0.01, 0.001), [](const auto& info) {
  return info.param == 0.1 ? std::string("h0_1") : info.param == 0.01 ? std::string("h0_01") : std::string("h0_001");
});

TEST(CompliantPhysics, HeavyLoadOnALightCableStaysStableWithGeometricStiffness) {
  // A 100 kg load on twenty 0.1 kg links of 0.25 m (1000:1), released 45° off the vertical, h = 0.01 s
  // for 8 s (about 1.7 swings) with M̃ = M − h²K̃: the anchors stay together, the energy never rises.
  const Scene scene = hanging_chain(20, 0.25, 0.1, 100.0, 0.3, std::numbers::pi / 4, 0.01,
                                    {{"stabilization", "geometric_stiffness"}});
  const RunReport r = run(scene, 8.0);
  std::printf("cable load, geometric stiffness: max anchor gap %.3e m, max energy rise %.3e J, energy %.4e -> %.4e J, "
              "median %.3f ms/step\n", r.max_gap, r.max_energy_rise, r.energy0, r.last_energy, r.median_ms);
  EXPECT_LT(r.max_gap, 1e-3);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
}

// Ten 0.2 kg ball-jointed links under a 15 t load (75,000:1), released 30° off the vertical, h = 1/60 s
// for 20 s at default settings (hostile pass 16, defect 1: peak kinetic energy 18× what the release
// holds, exit 0). The curvature term's steps that land further off the stiff rows than the paper's were
// kept, the gaps stalled the projection, and the halved substeps' −φ/h at h/64 turned them into velocity
// (compliant_simulator.cpp, made_energy). A pendulum can never hold more energy than it was released
// with: the total (kinetic and gravity) never above its start by more than 10⁻⁶ of it.
TEST(CompliantPhysics, HeavyLoadOnLightBallChainNeverGainsEnergyAtDefaultSettings) {
  const Scene scene = hanging_chain(10, 0.5, 0.2, 15000.0, 1.5, std::numbers::pi / 6, 1.0 / 60.0);
  const RunReport r = run(scene, 20.0);
  std::printf("15 t on ten 0.2 kg ball links, h = 1/60: energy %.4e -> %.4e J, largest rise %.3e J, max anchor gap "
              "%.2e m, median %.3f ms/step\n", r.energy0, r.last_energy, r.max_energy_rise, r.max_gap, r.median_ms);
  EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0));
  EXPECT_LT(r.max_gap, 0.05);
}

// Ten 0.2 kg links (capsules r = 3 cm, as the hostile pass's) on ball or universal joints under a 15 t
// load (75,000:1), hung from the world 20° off the vertical and released, 20 s at default settings. Before
// the projection's fallback metric and the energy line (compliant_simulator.cpp) the ball chain tore at
// h = 0.1 (exit 1 at step 66) and the universal one released 30° off gained 1.5·10⁵ J and exited 0. A
// pendulum released from rest with nothing doing work on it: the total energy (kinetic and gravity) never
// above its start, and the anchors within the solver's joint_gap of 1 mm (5 mm for ball joints at h ≥ 0.05).
Scene heavy_capsule_chain(JointType type, double tilt, double h) {
  Scene scene = hanging_chain(10, 0.5, 0.2, 15000.0, 1.0, tilt, h);
  for (BodyDef& b : scene.bodies)
    if (b.name != "load") b.shape = CapsuleShape{0.03, 0.38, 24};
  if (type == JointType::universal)
    for (JointDef& j : scene.joints) {
      j.type = JointType::universal;
      j.axes = {Vec3::UnitY(), Vec3::UnitX()};
    }
  return scene;
}

class HeavyLoadOnLightChain : public ::testing::TestWithParam<double> {};

TEST_P(HeavyLoadOnLightChain, BallAndUniversalJointsHoldAndNeverGainEnergyAtDefaultSettings) {
  const double h = GetParam();
  for (const JointType type : {JointType::ball, JointType::universal})
    for (const double tilt_deg : {20.0, 30.0}) {
      const RunReport r = run(heavy_capsule_chain(type, tilt_deg * std::numbers::pi / 180.0, h), 20.0);
      std::printf("15 t on ten 0.2 kg %s links from %g deg, h = %.4f: energy %.4e -> %.4e J, largest rise %.3e J, "
                  "max anchor gap %.2e m, median %.3f ms/step\n", type == JointType::ball ? "ball" : "universal",
                  tilt_deg, h, r.energy0, r.last_energy, r.max_energy_rise, r.max_gap, r.median_ms);
      EXPECT_LE(r.max_energy_rise, 1e-6 * std::abs(r.energy0)) << tilt_deg;
      // Ball joints from 30° at h ≥ 0.05 leave single-step gaps of 2–4 mm (README, Known limits): 5 mm there.
      EXPECT_LT(r.max_gap, type == JointType::ball && h > 0.02 ? 5e-3 : 1e-3) << tilt_deg;
      EXPECT_LT(r.last_energy, r.energy0) << "the chain did not swing";
    }
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, HeavyLoadOnLightChain, ::testing::Values(0.1, 0.05, 1.0 / 60.0), step_name);

// The same 15 t ball chain (20°) hung from the tip of a 500 kg arm, 2 m, hinged to the world and held level
// by a servo (k = 10⁹ N·m/rad, d = 10⁸ N·m·s/rad, set point its start). The energy guard was off wherever
// a drive was (the chain tore at every h); now it counts the drives' work. A servo holding its start is
// passive — it stores ½k s² ≥ 0 and its damping takes energy out — so the bodies' kinetic and gravity
// energy, computed here from their poses and velocities, never rises above its start.
class ServoHeldChain : public ::testing::TestWithParam<double> {};

TEST_P(ServoHeldChain, NeverGainsEnergyAndHoldsItsJoints) {
  const double h = GetParam();
  const Vec3 tip(2.0, 0.0, 0.0);
  Scene scene = heavy_capsule_chain(JointType::ball, 20.0 * std::numbers::pi / 180.0, h);
  for (BodyDef& b : scene.bodies) b.position += tip;
  for (JointDef& j : scene.joints) {
    j.anchor += tip;
    if (j.body2 == "world") j.body2 = "arm";
  }
  scene.bodies.insert(scene.bodies.begin(), box("arm", Vec3(2.0, 0.2, 0.2), Vec3(1.0, 0.0, 0.0), 500.0));
  JointDef& shoulder = test::add_joint(scene, JointType::hinge, "arm", "world");
  shoulder.anchor = Vec3::Zero();
  shoulder.axis = Vec3::UnitY();
  shoulder.servo = ServoDef{0.0, 1e9, 1e8};
  const auto model = std::make_shared<const Model>(compile(scene));
  const auto sim = make_simulator(model);
  const auto mechanical = [&] {  // Σ ½m|v|² + ½ωᵀIω − m g·c
    const std::vector<BodyPose> pose = sim->poses();
    const std::vector<BodyVelocity> vel = sim->velocities();
    double e = 0.0;
    for (std::size_t i = 0; i < model->bodies.size(); ++i) {
      const ModelBody& b = model->bodies[i];
      const Mat3 I = pose[i].A * b.inertia * pose[i].A.transpose();
      const Vec3 c = pose[i].p + pose[i].A * b.center_of_mass;
      e += 0.5 * b.mass * vel[i].linear.squaredNorm() + 0.5 * vel[i].angular.dot(I * vel[i].angular) -
           b.mass * scene.settings.gravity.dot(c);
    }
    return e;
  };
  const double e0 = mechanical();
  double rise = -INFINITY, gap = 0.0;
  const int steps = static_cast<int>(std::lround(20.0 / h));
  for (int n = 0; n < steps; ++n) {
    sim->step();
    rise = std::max(rise, mechanical() - e0);
    gap = std::max(gap, test::max_anchor_gap(*model, sim->joint_records()));
  }
  std::printf("servo-held arm with 15 t on ten ball links, h = %.4f: energy %.4e J, largest rise %.3e J, max anchor "
              "gap %.2e m\n", h, e0, rise, gap);
  EXPECT_LE(rise, 1e-6 * std::abs(e0));
  EXPECT_LT(gap, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, ServoHeldChain, ::testing::Values(0.1, 0.05, 1.0 / 60.0), step_name);

// A jib slewing at a constant ω = 0.2 rad/s about the vertical through its origin (kinematic), carrying a
// 5 t load on ten 0.2 kg links on `cable` joints (bending and torsion 10³ N·m/rad), h = 0.1 s, default
// settings (hostile pass 16, defect 5: diverged at step 22 with the energy guard off because the jib moved).
// The rows are fixed in the frame that turns with the jib and gravity lies along its axis, so the Jacobi
// integral H = E − ω L_z (L_z the angular momentum about the slewing axis) is a constant of the motion:
// the step, dissipative, may lose it but never gains more than 10⁻³ of the start's energy scale.
TEST(CompliantPhysics, SlewingCraneKeepsItsJacobiIntegralAtATenthOfASecond) {
  const double omega = 0.2, h = 0.1;
  const Vec3 axis_point(5.0, 0.0, 0.0);
  BodyDef jib = box("jib", Vec3(10.0, 0.5, 0.5), Vec3(5.0, 0.0, 10.3), 1000.0);
  jib.kinematic = Kinematic{};
  jib.kinematic->angular_velocity = Vec3(0.0, 0.0, omega);
  std::vector<BodyDef> bodies{jib};
  for (int k = 0; k < 10; ++k) {  // capsules r = 3 cm: the links' small inertia is what whips
    BodyDef link = box("c" + std::to_string(k), Vec3::Zero(), Vec3(10.0, 0.0, 9.75 - 0.5 * k), 0.2);
    link.shape = CapsuleShape{0.03, 0.38, 24};
    bodies.push_back(link);
  }
  bodies.push_back(box("load", Vec3::Constant(1.0), Vec3(10.0, 0.0, 4.5), 5000.0));
  Scene scene = compliant_scene(bodies, h);
  for (int k = 0; k <= 10; ++k) {
    JointDef& j = test::add_joint(scene, JointType::cable, k < 10 ? "c" + std::to_string(k) : "load",
                                  k == 0 ? "jib" : "c" + std::to_string(k - 1));
    j.anchor = Vec3(10.0, 0.0, 10.0 - 0.5 * k);
    j.axis = -Vec3::UnitZ();
    j.bending = {1e3, 0.0};
    j.torsion = {1e3, 0.0};
  }
  const auto model = std::make_shared<const Model>(compile(scene));
  const auto sim = make_simulator(model);
  const auto jacobi = [&](const StepStats& s) {
    const std::vector<BodyPose> pose = sim->poses();
    const std::vector<BodyVelocity> vel = sim->velocities();
    double Lz = 0.0;
    for (std::size_t i = 1; i < model->bodies.size(); ++i) {  // the moving bodies (centres at their origins)
      const ModelBody& b = model->bodies[i];
      const Mat3 I = pose[i].A * b.inertia * pose[i].A.transpose();
      Lz += ((pose[i].p - axis_point).cross(b.mass * vel[i].linear) + I * vel[i].angular).z();
    }
    return s.kinetic_energy + s.potential_energy - omega * Lz;
  };
  double H0 = NAN, rise = -INFINITY, gap = 0.0;
  for (int n = 0; n < 120; ++n) {
    const StepStats s = sim->step();
    const double H = jacobi(s);
    if (n == 0) H0 = H;
    rise = std::max(rise, H - H0);
    gap = std::max(gap, test::max_anchor_gap(*model, sim->joint_records()));
  }
  std::printf("slewing crane at h = 0.1: Jacobi integral %.4e J, largest rise %.3e J, max anchor gap %.2e m\n", H0,
              rise, gap);
  EXPECT_LE(rise, 1e-3 * std::abs(H0));
  EXPECT_LT(gap, 1e-3);
}

/// The cable load of Andrews Fig. 8: a 100 kg load on twenty 0.1 kg links of 0.25 m joined by flexible
/// `cable` joints (axial stiffness 10¹², bending and torsion 10 N·m/rad; shear as stiff as the axis),
/// released 45° off the vertical from rest.
Scene flexible_cable_load(double dt, const nlohmann::json& settings) {
  const int links = 20;
  const double link = 0.25, tilt = std::numbers::pi / 4;
  Scene scene = hanging_chain(links, link, 0.1, 100.0, 0.3, tilt, dt, settings);
  const Vec3 down(std::sin(tilt), 0.0, -std::cos(tilt));
  for (JointDef& j : scene.joints) {
    j.type = JointType::cable;
    j.axis = down;
    j.axial = {1e12, 0.0};
    j.shear = {1e12, 0.0};
    j.bending = {10.0, 0.0};
    j.torsion = {10.0, 0.0};
  }
  return scene;
}

/// The peak kinetic energy of each swing (the largest between two zero crossings of the load's x
/// velocity) over `duration`, and the largest anchor gap.
struct SwingPeaks {
  std::vector<double> peaks;
  double max_gap = 0.0;
};

SwingPeaks swing_peaks(const Scene& scene, double duration) {
  const auto model = std::make_shared<const Model>(compile(scene));
  const auto sim = make_simulator(model);
  SwingPeaks out;
  const int load = static_cast<int>(model->bodies.size()) - 1;
  double peak = 0.0, last_vx = 0.0;
  const int steps = static_cast<int>(std::lround(duration / scene.settings.dt));
  for (int n = 0; n < steps; ++n) {
    const StepStats s = sim->step();
    EXPECT_TRUE(std::isfinite(s.kinetic_energy)) << "step " << n;
    const double vx = sim->velocities()[load].linear.x();
    if (n > 0 && (vx > 0) != (last_vx > 0)) out.peaks.push_back(peak), peak = 0.0;
    peak = std::max(peak, s.kinetic_energy);
    last_vx = vx;
    out.max_gap = std::max(out.max_gap, test::max_anchor_gap(*model, sim->joint_records()));
  }
  return out;
}

// Andrews Fig. 8: with constraint-space damping (Eq. 14–17) the peak kinetic energy drops by 2 % over 40 s in
// the paper, by at most 5 % in the issue. The cable hangs from the world by a `cable` joint, whose bending
// rows' rate is the swing itself; with b′ on them (settings.compliant.anchored_damping, the paper's every
// row) 11.4 % is lost, and the test below keeps that comparison (stability_damping.hpp, "Anchored rows").
TEST(CompliantPhysics, FlexibleCableLoadKeepsItsSwingWithConstraintSpaceDamping) {
  const SwingPeaks r = swing_peaks(flexible_cable_load(0.01, {{"stabilization", "constraint_damping"}}), 40.0);
  ASSERT_GE(r.peaks.size(), 10u) << "the load did not swing";
  const double drop = 1.0 - r.peaks.back() / r.peaks.front();
  std::printf("flexible cable load, constraint damping: %zu half swings, peak KE %.1f J -> %.1f J (drop %.2f %%), "
              "max anchor gap %.2e m\n", r.peaks.size(), r.peaks.front(), r.peaks.back(), 100 * drop, r.max_gap);
  EXPECT_LE(drop, 0.05);
  EXPECT_LT(r.max_gap, 1e-3);
}

// The headline: stable at h = 1/60 … 0.1 s with no hand-tuned damping. At h = 0.1 the cable's links
// turn by up to 6 rad in a step when the load passes its apex, the curvature term's prediction fails, and
// the load gained 48 kJ in 4 s before the energy guard (row_curvature.hpp, "Energy guard"). Bounded: the
// total energy (kinetic, gravity, the bending and torsion springs) never above its start by more than
// 25 J, 1.7 % of the swing's 1.5 kJ (at h = 1/60 the guard never fires and the energy rises by up to 16 J
// as it did before it; at 0.05 and 0.1 it fires in ~400–500 substeps and the energy never rises), and the
// anchors together within the solver's joint_gap.
class CableAtLargeSteps : public ::testing::TestWithParam<double> {};

TEST_P(CableAtLargeSteps, FlexibleCableLoadStaysBoundedForTwentySeconds) {
  const double h = GetParam();
  int dropped = 0;  // substeps whose curvature term the energy guard dropped
  const RunReport r = run(flexible_cable_load(h, {{"stabilization", "constraint_damping"}}), 20.0,
                          [&](const Model&, const Simulator& sim, const StepStats&) {
                            dropped = dynamic_cast<const CompliantSimulator&>(sim).curvature_dropped();
                          });
  std::printf("flexible cable load at h = %.4f s: energy %.1f J -> %.1f J, largest rise %.2f J, max anchor gap %.2e m, "
              "median %.2f ms per step, curvature dropped in %d substeps\n", h, r.energy0, r.last_energy,
              r.max_energy_rise, r.max_gap, r.median_ms, dropped);
  EXPECT_LE(r.max_energy_rise, 25.0);
  EXPECT_LT(r.max_gap, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, CableAtLargeSteps, ::testing::Values(0.1, 0.05, 1.0 / 60.0), [](const auto& info) {
  return "h" + std::to_string(static_cast<int>(std::lround(1000 * info.param))) + "ms";
});

TEST(CompliantPhysics, FlexibleCableLoadKeepsMoreOfItsSwingWithConstraintDampingThanWithGeometricStiffness) {
  // Andrews Fig. 8's comparison over the first 20 s: M̃ = M − h²K̃ (Tournier 2015) dissipates the swing
  // ("nearly 40 %" over 40 s in the paper), constraint-space damping keeps most of it; at least half of
  // geometric stiffness's loss is kept (measured over 20 s: 5.5 % against 32.8 %).
  const double duration = 20.0;
  const SwingPeaks gs = swing_peaks(flexible_cable_load(0.01, {{"stabilization", "geometric_stiffness"}}), duration);
  const SwingPeaks cd = swing_peaks(flexible_cable_load(0.01, {{"stabilization", "constraint_damping"}}), duration);
  ASSERT_GE(gs.peaks.size(), 6u) << "the load did not swing";
  ASSERT_GE(cd.peaks.size(), 6u) << "the load did not swing";
  const double drop_gs = 1.0 - gs.peaks.back() / gs.peaks.front(), drop_cd = 1.0 - cd.peaks.back() / cd.peaks.front();
  std::printf("flexible cable load over %g s: peak KE drop %.2f %% with geometric stiffness, %.2f %% with constraint "
              "damping (max anchor gap %.2e m)\n", duration, 100 * drop_gs, 100 * drop_cd, cd.max_gap);
  EXPECT_GE(drop_gs, 0.2);
  EXPECT_LT(drop_cd, 0.5 * drop_gs);
  EXPECT_LT(cd.max_gap, 1e-3);
  // The paper's every row damped, the top joint's too (anchored_damping): its bending rows' rate is the
  // swing, and their b′ takes a share of it that the default leaves (stability_damping.hpp).
  const SwingPeaks every = swing_peaks(
      flexible_cable_load(0.01, {{"stabilization", "constraint_damping"}, {"anchored_damping", true}}), duration);
  ASSERT_GE(every.peaks.size(), 6u) << "the load did not swing";
  const double drop_every = 1.0 - every.peaks.back() / every.peaks.front();
  std::printf("  and %.2f %% with constraint damping on the anchored rows too\n", 100 * drop_every);
  EXPECT_GT(drop_every, 0.02);
  EXPECT_GT(drop_every, 5 * drop_cd);
}

TEST(CompliantPhysics, LowRankAndFullRankAugmentedMassGiveTheSameMotion) {
  Scene low = hanging_chain(8, 0.2, 0.1, 5.0, 0.2, 0.5, 0.01, {{"stabilization", "geometric_stiffness"}});
  Scene full = hanging_chain(8, 0.2, 0.1, 5.0, 0.2, 0.5, 0.01,
                             {{"stabilization", "geometric_stiffness"}, {"inverse", "full_rank"}});
  const auto a = make_simulator(low), b = make_simulator(full);
  for (int n = 0; n < 200; ++n) a->step(), b->step();
  const std::vector<BodyPose> start = make_simulator(low)->poses();
  double diff = 0.0, travel = 0.0;
  for (std::size_t i = 0; i < a->poses().size(); ++i) {
    diff = std::max(diff, (a->poses()[i].p - b->poses()[i].p).norm());
    travel = std::max(travel, (a->poses()[i].p - start[i].p).norm());
  }
  EXPECT_LT(diff, 1e-8);
  EXPECT_GT(std::abs(travel), 0.1) << "the chain did not swing";
}

}  // namespace
}  // namespace affix
