// The cone_twist swing cone (swing_cone.hpp): its value against the closed forms of the cone — on the
// swing axes s = θ − span, on the diagonal of equal spans s = θ − span (a box's corner would allow
// 41.4° at ±30°), on an ellipse's 45° direction θ_lim = (½/Y² + ½/Z²)^(−½) — its gradient against central
// differences at random axes and spans (asymmetric ones included, across the quadrant seams), and the
// limit row of rigid_jacobian.hpp against central differences of the row's value at random poses.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/joints/swing_cone.hpp"
#include "affix/math/rotation.hpp"
#include "support/finite_differences.hpp"
#include "support/random_rigid.hpp"

namespace affix {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

/// e_x swung by θ about the unit direction (n₁, n₂) of the joint frame's (y, z) plane.
Vec3 swung(double theta, double n1, double n2) {
  return rotation_from_rotation_vector(theta * Vec3(0.0, n1, n2).normalized()) * Vec3::UnitX();
}

TEST(SwingCone, OnTheSwingAxesTheLimitIsEachSpan) {
  const SwingCone cone{0.5, 0.3, 0.7, 0.2};  // swing1 ∈ [−0.3, 0.5], swing2 ∈ [−0.2, 0.7]
  EXPECT_NEAR(swing_cone(swung(0.4, 1, 0), cone).value, 0.4 - 0.5, 1e-12);
  EXPECT_NEAR(swing_cone(swung(0.4, -1, 0), cone).value, 0.4 - 0.3, 1e-12);
  EXPECT_NEAR(swing_cone(swung(0.9, 0, 1), cone).value, 0.9 - 0.7, 1e-12);
  EXPECT_NEAR(swing_cone(swung(0.1, 0, -1), cone).value, 0.1 - 0.2, 1e-12);
  // A swing about y alone is the Euler angle swing1 (R_y(s)e_x = (cos s, 0, −sin s)).
  const Vec3 a = (Eigen::AngleAxisd(0.25, Vec3::UnitY()) * Vec3::UnitX());
  EXPECT_NEAR(swing_cone(a, cone).theta, 0.25, 1e-12);
  EXPECT_NEAR(swing_cone(a, cone).limit, 0.5, 1e-12);
}

TEST(SwingCone, EqualSpansMakeACircularConeThatStopsTheDiagonalAtTheSpan) {
  const SwingCone cone{30 * kDeg, 30 * kDeg, 30 * kDeg, 30 * kDeg};
  for (double phi = 0.0; phi < 2 * std::numbers::pi; phi += 0.3) {
    const SwingConeValue c = swing_cone(swung(35 * kDeg, std::cos(phi), std::sin(phi)), cone);
    EXPECT_NEAR(c.limit, 30 * kDeg, 1e-12) << "direction " << phi;
    EXPECT_NEAR(c.value, 5 * kDeg, 1e-12) << "direction " << phi;
  }
  // The box of two ±30° Euler angles reaches 41.4° at its corner; the cone says that is 11.4° outside.
  const double corner = std::acos(std::cos(30 * kDeg) * std::cos(30 * kDeg));
  EXPECT_NEAR(swing_cone(swung(corner, 1, 1), cone).value, corner - 30 * kDeg, 1e-12);
  EXPECT_GT(corner, 41 * kDeg);
}

TEST(SwingCone, UnequalSpansMakeAnEllipse) {
  const double Y = 20 * kDeg, Z = 40 * kDeg;
  const SwingCone cone{Y, Y, Z, Z};
  for (double phi = 0.05; phi < 2 * std::numbers::pi; phi += 0.4) {
    const double n1 = std::cos(phi), n2 = std::sin(phi);
    const double expected = 1.0 / std::sqrt(n1 * n1 / (Y * Y) + n2 * n2 / (Z * Z));
    EXPECT_NEAR(swing_cone(swung(0.3, n1, n2), cone).limit, expected, 1e-12) << "direction " << phi;
  }
  EXPECT_NEAR(swing_cone(swung(0.3, 1, 1), cone).limit, 1.0 / std::sqrt(0.5 / (Y * Y) + 0.5 / (Z * Z)), 1e-12);
}

TEST(SwingCone, GradientMatchesCentralDifferences) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> span(0.1, 1.4), angle(0.05, 3.0), direction(0.0, 2 * std::numbers::pi);
  for (int trial = 0; trial < 200; ++trial) {
    const SwingCone cone{span(rng), span(rng), span(rng), span(rng)};
    // Every fifth trial on a seam between quadrants (n₁ or n₂ = 0), where Y or Z switches.
    double phi = direction(rng);
    const bool seam = trial % 5 == 0;
    if (seam) phi = (trial / 5 % 4) * 0.5 * std::numbers::pi;
    const Vec3 a = swung(angle(rng), std::cos(phi), std::sin(phi));
    const SwingConeValue c = swing_cone(a, cone);
    const VecX fd = test::fd_gradient([&](const VecX& x) { return swing_cone(Vec3(x), cone).value; }, VecX(a), 1e-7);
    ASSERT_GT(c.gradient.norm(), 0.5) << "trial " << trial;
    // On a seam the central difference straddles the jump of the second derivative (s is C¹, not C²
    // there: the span switches), an O(h·Δs'') error of a few 1e-6; C¹ is what the row needs.
    EXPECT_TRUE(test::near_relative(MatX(c.gradient), MatX(fd), seam ? 2e-5 : 1e-6)) << "trial " << trial << " phi " << phi;
    EXPECT_NEAR(c.gradient.dot(a), 0.0, 1e-9) << "s depends on the direction of a only";
  }
}

TEST(SwingCone, ConeTwistWithBothSwingRangesAroundZeroHasOneConeRowThatMatchesCentralDifferences) {
  std::mt19937 rng(43);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 40; ++trial) {
      const std::vector<ModelBody> bodies{test::random_body(rng), test::random_body(rng)};
      ModelJoint j = test::random_joint(JointType::cone_twist, false, body2, rng);
      j.def.twist_limits = AngleRange{-1.0, 1.0};
      j.def.swing1_limits = AngleRange{-0.4, 0.9};  // asymmetric: a quarter ellipse per quadrant
      j.def.swing2_limits = AngleRange{-0.7, 0.3};
      const RigidJoint joint = rigid_joint(j, bodies);
      ASSERT_EQ(joint.limit_count, 2);
      ASSERT_EQ(joint.limits[1].coordinate, RigidCoordinate::cone);
      EXPECT_EQ(joint.limits[1].max, 0.0);
      const RigidPose p1 = test::random_pose(rng), p2 = test::random_pose(rng);
      const RigidRows rows = rigid_limit_coordinates(joint, p1, p2);
      const int n = body2 < 0 ? 6 : 12;
      MatX J(2, n);
      J.leftCols(6) = rows.J1;
      if (body2 >= 0) J.rightCols(6) = rows.J2;
      const MatX fd = test::rigid_finite_differences(
          [&](const RigidPose& q1, const RigidPose& q2) { return rigid_limit_coordinates(joint, q1, q2).value; }, p1, p2,
          2, n);
      ASSERT_GT(J.row(1).cwiseAbs().maxCoeff(), 1e-3);
      EXPECT_TRUE(test::near_relative(J, fd, 1e-6)) << "body2 " << body2 << " trial " << trial;
    }
  }
}

TEST(SwingCone, SwingRangesThatDoNotHoldZeroStayTwoAngles) {
  std::mt19937 rng(47);
  const std::vector<ModelBody> bodies{test::random_body(rng)};
  ModelJoint j = test::random_joint(JointType::cone_twist, false, -1, rng);
  j.def.swing1_limits = AngleRange{0.1, 0.9};  // no cone holds the start (s = 0) inside
  j.def.swing2_limits = AngleRange{-0.7, 0.3};
  RigidJoint joint = rigid_joint(j, bodies);
  ASSERT_EQ(joint.limit_count, 2);
  EXPECT_EQ(joint.limits[0].coordinate, RigidCoordinate::swing1);
  EXPECT_EQ(joint.limits[1].coordinate, RigidCoordinate::swing2);
  j.def.swing1_limits.reset();  // one swing bounded: the other is free, no cone
  joint = rigid_joint(j, bodies);
  ASSERT_EQ(joint.limit_count, 1);
  EXPECT_EQ(joint.limits[0].coordinate, RigidCoordinate::swing2);
}

}  // namespace
}  // namespace affix
