// Compliant contact at large mass ratios (issue 15, hostile pass 2) against closed forms: a heavy box at
// rest on a light one rests at its height (the bottom box's centre at a/2, the top one's at 3a/2) with
// the support forces equal to the weights above (the ground carries both, the light box the heavy one);
// a stack of three whose masses grow upward likewise; and on a slope of angle θ the pair holds when
// tan θ < μ and slides together at g(sin θ − μ cos θ) when the ground's μ is below tan θ and the boxes'
// own is above it. Before the mixed LCP pivoted friction rows (mixed_lcp_pivoting.cpp) PGS met these
// rows at the rate of the mass ratio: the 100 kg box on a 1 kg box sank 0.37 m at h = 1/60. Issue 15: the
// same pair sliding at 1000:1, and a folded chain of 1 g links under 1000 kg (a set beyond 64 rows).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81, kSize = 0.5;

BodyDef box(const std::string& name, double mass, double z, double friction = 0.5) {
  BodyDef b = test::box_body(name, Vec3::Constant(kSize), Vec3(0, 0, z));
  b.mass = mass;
  b.friction = friction;
  return b;
}

struct Rest {
  std::vector<double> height;   // centres at the end (m)
  double worst_sink = 0.0;      // over the run: the largest drop of a centre below its rest height (m)
  std::vector<double> support;  // the vertical contact force under box i (N)
  double overlap = 0.0;         // deepest overlap over the run (m)
  int cap_hits = 0;
};

/// Boxes of the given masses stacked from the ground up, each `gap` above the one below, run for
/// `duration` at step h.
Rest stack(const std::vector<double>& masses, double h, double duration, double gap = 1e-3) {
  std::vector<BodyDef> bodies;
  for (std::size_t i = 0; i < masses.size(); ++i)
    bodies.push_back(box("box" + std::to_string(i), masses[i], (i + 0.5) * kSize + (i + 1) * gap));
  Scene scene = test::scene_with(bodies, h, Ground{0.0, 0.5});
  const auto sim = test::simulate(scene, "compliant");
  Rest r;
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int n = 0; n < steps; ++n) {
    const StepStats s = sim->step();
    r.cap_hits += s.hit_iteration_cap ? 1 : 0;
    r.overlap = std::max(r.overlap, s.max_penetration);
    const std::vector<BodyPose> poses = sim->poses();
    for (std::size_t i = 0; i < masses.size(); ++i)
      r.worst_sink = std::max(r.worst_sink, (i + 0.5) * kSize - poses[i].p.z());
  }
  for (const BodyPose& p : sim->poses()) r.height.push_back(p.p.z());
  // The vertical force under each box: its contacts with the ground or the box below (the bodies are
  // in stack order, so the upper one of a pair has the larger index).
  r.support.assign(masses.size(), 0.0);
  for (const ContactRecord& c : sim->contact_records())
    r.support[std::max(c.body1, c.body2)] += c.force * std::abs(c.normal.z());
  return r;
}

/// (mass ratio, h)
class HeavyOnLight : public ::testing::TestWithParam<std::tuple<double, double>> {};

TEST_P(HeavyOnLight, HeavyBoxRestsOnALightBoxAtItsHeightCarriedByTheWeights) {
  const auto [ratio, h] = GetParam();
  const double light = 1.0, heavy = ratio * light;
  const Rest r = stack({light, heavy}, h, 3.0);
  std::printf("%.0f:1 at h = %.4f: centres %.6f, %.6f m (rest %.3f, %.3f); worst sink %.2e m, overlap %.2e m; "
              "support %.2f N (weights above %.2f N), %.2f N (%.2f N); %d capped steps\n",
              ratio, h, r.height[0], r.height[1], 0.5 * kSize, 1.5 * kSize, r.worst_sink, r.overlap, r.support[0],
              (light + heavy) * kG, r.support[1], heavy * kG, r.cap_hits);
  EXPECT_NEAR(r.height[0], 0.5 * kSize, 1e-3);
  EXPECT_NEAR(r.height[1], 1.5 * kSize, 2e-3);
  EXPECT_LT(r.worst_sink, 5e-3);
  // The contact forces hold the weights above: the ground both boxes, the light box the heavy one.
  EXPECT_NEAR(r.support[0], (light + heavy) * kG, 1e-3 * (light + heavy) * kG);
  EXPECT_NEAR(r.support[1], heavy * kG, 1e-3 * heavy * kG);
  EXPECT_EQ(r.cap_hits, 0);
}

INSTANTIATE_TEST_SUITE_P(CompliantMassRatio, HeavyOnLight,
                         ::testing::Combine(::testing::Values(1e2, 1e3, 1e4), ::testing::Values(1.0 / 60.0, 0.1)),
                         [](const auto& info) {
                           return "ratio" + std::to_string(static_cast<int>(std::get<0>(info.param))) + "_h" +
                                  std::to_string(static_cast<int>(std::lround(1000 * std::get<1>(info.param)))) + "ms";
                         });

class Stack : public ::testing::TestWithParam<double> {};

TEST_P(Stack, ThreeBoxesHeavierUpwardRestAtTheirHeights) {
  const double h = GetParam();
  const std::vector<double> masses{1.0, 100.0, 10000.0};
  const Rest r = stack(masses, h, 3.0);
  std::printf("1, 100, 10000 kg at h = %.4f: centres %.6f, %.6f, %.6f m; worst sink %.2e m; supports %.1f, %.1f, "
              "%.1f N\n",
              h, r.height[0], r.height[1], r.height[2], r.worst_sink, r.support[0], r.support[1], r.support[2]);
  double above = 0.0;
  for (int i = 2; i >= 0; --i) {
    above += masses[i];
    EXPECT_NEAR(r.height[i], (i + 0.5) * kSize, 2e-3) << "box " << i;
    EXPECT_NEAR(r.support[i], above * kG, 1e-3 * above * kG) << "box " << i;
  }
  EXPECT_LT(r.worst_sink, 5e-3);
}

INSTANTIATE_TEST_SUITE_P(CompliantMassRatio, Stack, ::testing::Values(1.0 / 60.0, 0.1), [](const auto& info) {
  return "h" + std::to_string(static_cast<int>(std::lround(1000 * info.param))) + "ms";
});

/// A box of `heavy` kg on a 1 kg box on a slope tan θ = 0.2 (gravity tilted about y; the pair tips only
/// past tan θ = 1/3). Returns the light box's down-slope positions, one per step.
std::vector<double> slide(double heavy, double mu_ground, double mu_boxes, double h, double duration) {
  const double theta = std::atan(0.2);
  Scene scene = test::scene_with({box("light", 1.0, 0.5 * kSize + 1e-4, mu_boxes),
                                  box("heavy", heavy, 1.5 * kSize + 2e-4, mu_boxes)},
                                 h, Ground{0.0, mu_ground});
  scene.settings.gravity = kG * Vec3(std::sin(theta), 0, -std::cos(theta));
  const auto sim = test::simulate(scene, "compliant");
  std::vector<double> x;
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int n = 0; n < steps; ++n) {
    sim->step();
    const std::vector<BodyPose> poses = sim->poses();
    // Together to 5 mm: the centres' offset also reads the pair's rocking (6 mrad is 3 mm over 0.5 m).
    EXPECT_LT(std::abs(poses[1].p.x() - poses[0].p.x()), 5e-3) << "the heavy box slid on the light one, step " << n;
    x.push_back(poses[0].p.x());
  }
  return x;
}

/// (mass of the top box, h)
class Slope : public ::testing::TestWithParam<std::tuple<double, double>> {};

void expect_holding(double heavy, double h) {
  const std::vector<double> x = slide(heavy, 0.3, 0.3, h, 2.0);  // tan θ = 0.2 < μ = 0.3
  std::printf("%.0f kg on 1 kg, mu 0.3 > tan 0.2 at h = %.4f: moved %.3e m in 2 s\n", heavy, h, x.back());
  EXPECT_LT(std::abs(x.back()), 1e-3);
}

TEST_P(Slope, HeavyOnLightHoldsBelowTheFrictionAngle) {
  const auto [heavy, h] = GetParam();
  expect_holding(heavy, h);
}

TEST(CompliantMassRatio, ThousandToOneHoldsBelowTheFrictionAngle) {
  for (const double h : {1.0 / 60.0, 0.1}) expect_holding(1000.0, h);
}

/// The pair slides together: μ = √(μ₁μ₂) per pair gives √(0.9 · 0.01) = 0.095 against the ground and 0.9
/// between the boxes, which moving together need only the ground's 0.095 between them.
void expect_coulomb_slide(double heavy, double h) {
  const double mu_boxes = 0.9, mu = std::sqrt(mu_boxes * 0.01), theta = std::atan(0.2);
  const std::vector<double> x = slide(heavy, 0.01, mu_boxes, h, 2.0);
  const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
  const auto x_at = [&](double t) { return x[static_cast<std::size_t>(std::lround(t / h)) - 1]; };
  const double t0 = 0.8, t1 = 1.4, t2 = 2.0;
  const double a = (x_at(t2) - 2 * x_at(t1) + x_at(t0)) / ((t1 - t0) * (t1 - t0));
  std::printf("%.0f kg on 1 kg, mu %.4f < tan 0.2 at h = %.4f: acceleration %.4f m/s^2, Coulomb %.4f m/s^2\n", heavy,
              mu, h, a, expected);
  EXPECT_NEAR(a, expected, 0.02 * expected);
}

TEST_P(Slope, HeavyOnLightSlidesTogetherAtTheCoulombAcceleration) {
  const auto [heavy, h] = GetParam();
  expect_coulomb_slide(heavy, h);
}

// Issue 15: with a friction cone per corner the corners under the heavy box shared their normal load
// differently each solve, neither pivoting form settled, PGS finished those steps and squeezed the light
// box out (0.42 against 1.01 m/s² at h = 1/60, 3.25 at 0.1). Patch friction (compliant_unilateral.cpp:
// one cone per face, bounded by μΣλ_n, which the redundancy leaves unique) slides the pair together.
TEST(CompliantMassRatio, ThousandToOneSlidesTogether) {
  for (const double h : {1.0 / 60.0, 0.1}) expect_coulomb_slide(1000.0, h);
}

// Issue 15 (hostile pass of compliant12): eight 1 g hinge links folded flat in a zigzag on the ground under a
// 1000 kg box hinged to the top link, 10⁶:1. Its contact set is 120–320 rows, beyond the 64 that were
// pivoted before: PGS sank a link 12 cm into the load at step 2 at h = 0.1 (3.1 cm into the ground at 1/60,
// 3.9 cm at 0.01), a reported divergence. Closed forms at rest: the ground carries every weight (nothing
// else touches the pile), the load holds still; and the hinges stay closed. The links fold through their
// neighbours (hinged bodies do not collide) and the load falls 0.2 m onto them: the sets are degenerate
// (stacked faces), which the pivoting's proximal form settles (mixed_lcp_pivoting.cpp). At h = 0.05 the
// projection pressed a link 3.8 cm into another at step 4 until it kept contacts from deepening (compliant16b,
// compliant_contact_gaps.cpp's "Contacts in the projection"). At h = 0.1 a 206-row set as the load lands, beyond
// the 128 rows pivoted, still goes to PGS, which sinks a link (README, Known limits).
void expect_folded_chain_rests(double h) {
  {
    std::vector<BodyDef> bodies;
    const int links = 8;
    const double t = 0.05, gap = 1e-3, link_mass = 1e-3, load_mass = 1000.0;
    for (int i = 0; i < links; ++i) {
      BodyDef link = test::box_body("link" + std::to_string(i), Vec3(0.3, t, t), {0.15, 0, 0.5 * t + gap + i * (t + gap)});
      link.mass = link_mass;
      bodies.push_back(link);
    }
    const double top = links * (t + gap);  // the top link's upper face
    BodyDef load = test::box_body("load", Vec3::Constant(0.3), {0.15, 0, top + gap + 0.15});
    load.mass = load_mass;
    bodies.push_back(load);
    Scene scene = test::scene_with(bodies, h, Ground{0.0, 0.5});
    for (int i = 0; i < links; ++i) {
      JointDef& j = test::add_joint(scene, JointType::hinge, "link" + std::to_string(i),
                                    i + 1 < links ? "link" + std::to_string(i + 1) : std::string("load"));
      j.anchor = {i % 2 == 0 ? 0.3 : 0.0, 0, (i + 1) * (t + gap) + 0.5 * gap};
      j.axis = Vec3::UnitY();
    }
    const auto sim = test::simulate(scene, "compliant");
    const int steps = static_cast<int>(std::lround(3.0 / h));
    double worst_gap = 0.0, overlap = 0.0, kinetic = 0.0;
    for (int n = 0; n < steps; ++n) {
      const StepStats s = sim->step();
      worst_gap = std::max(worst_gap, s.max_joint_error);
      overlap = std::max(overlap, s.max_penetration);
      kinetic = s.kinetic_energy;
    }
    double ground = 0.0;
    for (const ContactRecord& c : sim->contact_records())
      if (c.body1 < 0 || c.body2 < 0) ground += c.force * std::abs(c.normal.z());
    const double weight = (links * link_mass + load_mass) * kG;
    const double load_z = sim->poses()[links].p.z(), load_vz = sim->velocities()[links].linear.z();
    std::printf("folded chain at h = %.4f: ground carries %.3f N (weights %.3f N), load at z = %.4f m (v_z %.1e), "
                "kinetic %.1e J, worst joint gap %.1e m, deepest overlap %.1e m\n",
                h, ground, weight, load_z, load_vz, kinetic, worst_gap, overlap);
    EXPECT_NEAR(ground, weight, 1e-3 * weight);
    EXPECT_LT(worst_gap, 1e-3);
    EXPECT_LT(overlap, 0.025);  // below the divergence check's limit, the links' half thickness
    EXPECT_LT(std::abs(load_vz), 1e-3);
    EXPECT_GT(load_z, 0.15 + t);  // on at least one link, not through the pile
  }
}

TEST(CompliantMassRatio, FoldedChainOfGramLinksUnderATonneRestsIntact) {
  for (const double h : {0.01, 1.0 / 60.0}) expect_folded_chain_rests(h);
}

// compliant16b's branch alone rested it at h = 0.05; with compliant16a's modal B and compliant16c's added
// inertia beside it the load's second landing (chaotic in B and h: README, Known limits) diverges at 0.05.
TEST(CompliantMassRatioKnown, DISABLED_FoldedChainOfGramLinksUnderATonneRestsAtATwentiethOfASecond) {
  expect_folded_chain_rests(0.05);
}

INSTANTIATE_TEST_SUITE_P(CompliantMassRatio, Slope,
                         ::testing::Values(std::make_tuple(100.0, 1.0 / 60.0), std::make_tuple(100.0, 0.1)),
                         [](const auto& info) {
                           return "heavy" + std::to_string(static_cast<int>(std::get<0>(info.param))) + "_h" +
                                  std::to_string(static_cast<int>(std::lround(1000 * std::get<1>(info.param)))) + "ms";
                         });

}  // namespace
}  // namespace affix
