// IpcSimulator::contact_records against closed forms: a box a known gap above the ground has one
// record per bottom corner, at the corner's foot midway down the gap, normal +z, the barrier's force
// κ·(−b'(d)); once it has settled the forces carry its weight m·g and each corner sits at the gap d*
// where κ·(−b'(d*)) = m·g/4; two boxes a known gap apart give records along the line between them,
// the normal pointing from body2 to body1.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "affix/energy/barrier.hpp"
#include "affix/solvers/ipc/ipc_simulator.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kG = 9.81;
constexpr double kDhat = 1e-3;

std::shared_ptr<const Model> compiled(const Scene& scene) { return std::make_shared<const Model>(compile(scene)); }

/// The barrier's force at gap d (N).
double barrier_force(double kappa, double d) { return kappa * -barrier_first_derivative(d, kDhat); }

/// The gap d in (0, d̂) where κ·(−b'(d)) = force; −b' falls monotonically from +∞ to 0 on (0, d̂).
double gap_for_force(double kappa, double force) {
  double lo = 1e-15 * kDhat, hi = kDhat;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (barrier_force(kappa, mid) > force ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// A 0.2 m box whose bottom face is `gap` above the ground.
Scene box_above_ground(double gap, std::optional<double> kappa) {
  Scene scene = test::scene_with({test::box_body("box", Vec3::Constant(0.2), Vec3(0, 0, 0.1 + gap))}, 0.01);
  nlohmann::json& ipc = scene.settings.solver_settings["ipc"];
  ipc["dhat"] = kDhat;
  if (kappa) ipc["kappa"] = *kappa;  // absent: adaptive
  ipc["tolerance"] = 1e-7;
  return scene;
}

TEST(ContactRecords, ABoxAKnownGapAboveTheGroundHasOneRecordPerBottomCorner) {
  const double gap = 0.4 * kDhat, kappa = 1e5;
  const IpcSimulator sim(compiled(box_above_ground(gap, kappa)));
  const std::vector<ContactRecord> records = sim.contact_records();
  ASSERT_EQ(records.size(), 4u);
  int corners = 0;
  for (const ContactRecord& r : records) {
    EXPECT_EQ(r.body1, 0);
    EXPECT_EQ(r.body2, -1);
    EXPECT_EQ(r.normal, Vec3::UnitZ());
    EXPECT_NEAR(r.distance, gap, 1e-12);
    EXPECT_NEAR(std::abs(r.point.x()), 0.1, 1e-12);
    EXPECT_NEAR(std::abs(r.point.y()), 0.1, 1e-12);
    EXPECT_NEAR(r.point.z(), 0.5 * gap, 1e-12);  // midway between the corner and its foot
    EXPECT_NEAR(r.force, barrier_force(kappa, gap), 1e-9 * barrier_force(kappa, gap));
    corners |= 1 << ((r.point.x() > 0) + 2 * (r.point.y() > 0));
  }
  EXPECT_EQ(corners, 0b1111) << "each bottom corner once";
}

TEST(ContactRecords, NothingBeyondDhat) {
  const IpcSimulator sim(compiled(box_above_ground(1.5 * kDhat, 1e5)));
  EXPECT_TRUE(sim.contact_records().empty());
}

TEST(ContactRecords, BeforeTheFirstStepAnAdaptiveKappaHasPushedNothing) {
  const IpcSimulator sim(compiled(box_above_ground(0.4 * kDhat, std::nullopt)));
  const std::vector<ContactRecord> records = sim.contact_records();
  ASSERT_EQ(records.size(), 4u);
  for (const ContactRecord& r : records) EXPECT_EQ(r.force, 0.0);
}

/// A settled box: its four corner forces carry m·g, whatever κ is (fixed or adaptive), and with a
/// fixed κ each corner sits at the gap whose barrier force is m·g/4.
class SettledBox : public testing::TestWithParam<std::optional<double>> {};

TEST_P(SettledBox, CornerForcesCarryTheWeight) {
  const std::optional<double> kappa = GetParam();
  IpcSimulator sim(compiled(box_above_ground(0.5 * kDhat, kappa)));
  const double m = sim.bodies()[0].mass;
  for (int n = 0; n < 150; ++n) sim.step();
  ASSERT_LT(state_translation(sim.state_velocities()[0]).norm(), 1e-6) << "not at rest";
  const std::vector<ContactRecord> records = sim.contact_records();
  ASSERT_EQ(records.size(), 4u);
  double total = 0.0;
  for (const ContactRecord& r : records) total += r.force;
  EXPECT_NEAR(total, m * kG, 1e-4 * m * kG);
  if (!kappa) return;
  const double d_star = gap_for_force(*kappa, m * kG / 4);
  for (const ContactRecord& r : records) {
    EXPECT_NEAR(r.distance, d_star, 1e-3 * d_star);
    EXPECT_NEAR(r.force, m * kG / 4, 1e-3 * m * kG);
    EXPECT_NEAR(r.point.z(), 0.5 * r.distance, 1e-9);
  }
}

INSTANTIATE_TEST_SUITE_P(FixedAndAdaptiveKappa, SettledBox, testing::Values(std::optional<double>(1e5), std::nullopt),
                         [](const auto& info) { return info.param ? "Fixed" : "Adaptive"; });

/// A fixed 1 m box whose top face is at z = 1 and a 0.5 m box turned 45° about z whose bottom face is
/// `gap` above it, wholly inside the top face: every contact is a bottom corner over the top face or a
/// bottom-face edge crossing a top-face edge, all at distance `gap`, all along z. No gravity, no ground.
Scene stacked_boxes(double gap, bool upper_first) {
  BodyDef lower = test::box_body("lower", Vec3::Constant(1.0), Vec3(0, 0, 0.5));
  lower.fixed = true;
  BodyDef upper = test::box_body("upper", Vec3::Constant(0.5), Vec3(0, 0, 1.25 + gap));
  upper.rotation = Quat(Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitZ()));
  Scene scene = upper_first ? test::scene_with({upper, lower}, 0.01, std::nullopt)
                            : test::scene_with({lower, upper}, 0.01, std::nullopt);
  scene.settings.gravity = Vec3::Zero();
  scene.settings.solver_settings["ipc"]["dhat"] = kDhat;
  scene.settings.solver_settings["ipc"]["kappa"] = 1e4;
  return scene;
}

TEST(ContactRecords, TwoBoxesAKnownGapApartGiveRecordsAlongTheLineBetweenThem) {
  const double gap = 0.3 * kDhat, kappa = 1e4;
  for (const bool upper_first : {true, false}) {
    SCOPED_TRACE(upper_first ? "upper box is body 0" : "lower box is body 0");
    const IpcSimulator sim(compiled(stacked_boxes(gap, upper_first)));
    const std::vector<ContactRecord> records = sim.contact_records();
    ASSERT_GE(records.size(), 4u) << "at least the four bottom corners of the upper box";
    // body1 < body2, and the normal points from body2 towards body1: up when body1 is the upper box.
    const Vec3 normal = upper_first ? Vec3::UnitZ() : Vec3(-Vec3::UnitZ());
    for (const ContactRecord& r : records) {
      EXPECT_EQ(r.body1, 0);
      EXPECT_EQ(r.body2, 1);
      EXPECT_NEAR((r.normal - normal).norm(), 0.0, 1e-9) << r.normal.transpose();
      EXPECT_NEAR(r.distance, gap, 1e-12);
      EXPECT_NEAR(r.point.z(), 1.0 + 0.5 * gap, 1e-12);
      EXPECT_LT(r.point.head<2>().norm(), 0.25 * std::numbers::sqrt2 + 1e-9) << "under the upper box";
      // The stencil's barrier force, times the candidates that reduced to it.
      const double k = r.force / barrier_force(kappa, gap);
      EXPECT_GE(k, 1.0 - 1e-9);
      EXPECT_NEAR(k, std::round(k), 1e-9);
    }
  }
}

}  // namespace
}  // namespace affix
