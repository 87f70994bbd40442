#include <gtest/gtest.h>

#include <cmath>

#include "affix/energy/joint_penalty.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kStiffness = 30.0;

Vec12 stack(const Vec3& x0, const Vec3& x1, const Vec3& x2 = Vec3::Zero(), const Vec3& x3 = Vec3::Zero()) {
  Vec12 x;
  x << x0, x1, x2, x3;
  return x;
}

/// A rigid placement (rotation and translation) of hand-placed points, so the values do not depend on
/// the points being axis-aligned.
struct Frame {
  Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  Vec3 t{0.3, -1.2, 2.5};
  Vec3 operator()(const Vec3& p) const { return R * p + t; }
};

TEST(JointPenalty, DistanceValueIsHalfStiffnessTimesLengthErrorSquared) {
  const Frame f;
  const Vec12 x = stack(f({0.0, 0.0, 0.0}), f({0.0, 2.5, 0.0}));
  EXPECT_NEAR(penalty_constraint(PenaltyKind::distance, x, 1.0), 1.5, 1e-14);
  EXPECT_NEAR(penalty_constraint(PenaltyKind::distance, x, 4.0), -1.5, 1e-14);
  EXPECT_NEAR(joint_penalty(PenaltyKind::distance, x, 1.0, kStiffness).value, 0.5 * kStiffness * 2.25, 1e-12);
}

TEST(JointPenalty, LineValueIsDistanceToTheLine) {
  // x₁x₂ is the line along the frame's first axis with ‖x₂ − x₁‖ = L = 2; x₀ is 0.5 away from it.
  const Frame f;
  const double L = 2.0;
  const Vec12 x = stack(f({0.7, 0.3, -0.4}), f({0.0, 0.0, 0.0}), f({L, 0.0, 0.0}));
  EXPECT_NEAR(penalty_constraint(PenaltyKind::line, x, L), 0.5, 1e-14);
  EXPECT_NEAR(joint_penalty(PenaltyKind::line, x, L, kStiffness).value, 0.5 * kStiffness * 0.25, 1e-12);
  // Along the line, beyond the segment and on the other side of x₁, the distance is unchanged.
  EXPECT_NEAR(penalty_constraint(PenaltyKind::line, stack(f({5.0, 0.3, -0.4}), f({0, 0, 0}), f({L, 0, 0})), L), 0.5,
              1e-14);
  EXPECT_NEAR(penalty_constraint(PenaltyKind::line, stack(f({-3.0, 0.3, -0.4}), f({0, 0, 0}), f({L, 0, 0})), L),
              0.5, 1e-14);
}

TEST(JointPenalty, PlaneValueIsSignedDistanceToThePlane) {
  // x₂ − x₁ and x₃ − x₁ orthogonal, both of length L = 1.5; x₀ is 0.25 above the plane (−0.25 below).
  const Frame f;
  const double L = 1.5;
  const Vec3 x1 = f({0, 0, 0}), x2 = f({L, 0, 0}), x3 = f({0, L, 0});
  const Vec12 above = stack(f({0.3, -0.2, 0.25}), x1, x2, x3), below = stack(f({4.0, 2.0, -0.25}), x1, x2, x3);
  EXPECT_NEAR(penalty_constraint(PenaltyKind::plane, above, L), 0.25, 1e-14);
  EXPECT_NEAR(penalty_constraint(PenaltyKind::plane, below, L), -0.25, 1e-14);
  EXPECT_NEAR(joint_penalty(PenaltyKind::plane, above, L, kStiffness).value, 0.5 * kStiffness * 0.0625, 1e-12);
  EXPECT_NEAR(joint_penalty(PenaltyKind::plane, below, L, kStiffness).value, 0.5 * kStiffness * 0.0625, 1e-12);
}

TEST(JointPenalty, ZeroWhenTheConstraintHolds) {
  std::srand(11);
  const Vec3 x1 = Vec3::Random(), e = Vec3::Random(), g = Vec3::Random();
  struct Case {
    PenaltyKind kind;
    Vec12 x;
    double length;
  };
  const Case cases[] = {
      {PenaltyKind::distance, stack(x1 + 1.3 * e.normalized(), x1), 1.3},
      {PenaltyKind::line, stack(x1 + 2.7 * e, x1, x1 + e), e.norm()},
      {PenaltyKind::plane, stack(x1 + 0.4 * e - 1.1 * g, x1, x1 + e, x1 + g), 1.0},
  };
  for (const Case& c : cases) {
    const StencilDerivatives p = joint_penalty(c.kind, c.x, c.length, kStiffness);
    EXPECT_NEAR(penalty_constraint(c.kind, c.x, c.length), 0.0, 1e-14);
    EXPECT_NEAR(p.value, 0.0, 1e-24);
    EXPECT_LT(p.gradient.norm(), 1e-12);
    EXPECT_GT(p.hessian.norm(), 0.0);  // k ∇c∇cᵀ: stiff against leaving the constraint
  }
}

TEST(JointPenalty, UnusedPointsHaveZeroRowsAndColumns) {
  std::srand(5);
  const Vec12 x = Vec12::Random();
  for (const auto& [kind, used] : {std::pair{PenaltyKind::distance, 6}, std::pair{PenaltyKind::line, 9}}) {
    const StencilDerivatives p = joint_penalty(kind, x, 0.8, kStiffness);
    EXPECT_EQ(p.gradient.tail(12 - used).norm(), 0.0);
    EXPECT_EQ(p.hessian.rightCols(12 - used).norm(), 0.0);
    EXPECT_EQ(p.hessian.bottomRows(12 - used).norm(), 0.0);
  }
}

TEST(JointPenalty, DerivativesMatchFiniteDifferences) {
  for (const PenaltyKind kind : {PenaltyKind::distance, PenaltyKind::line, PenaltyKind::plane}) {
    for (double length : {0.0, 0.3, 1.7}) {
      if (kind != PenaltyKind::distance && length == 0.0) continue;  // L > 0 for line and plane
      for (int seed = 1; seed <= 6; ++seed) {
        std::srand(seed);
        const VecX x = VecX::Random(12);
        const auto value = [&](const VecX& y) { return joint_penalty(kind, y, length, kStiffness).value; };
        const auto gradient = [&](const VecX& y) {
          return VecX(joint_penalty(kind, y, length, kStiffness).gradient);
        };
        const StencilDerivatives p = joint_penalty(kind, x, length, kStiffness);
        SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(kind) << " length " << length << " seed "
                                          << seed);
        ASSERT_GT(p.gradient.norm(), 0.0);
        EXPECT_TRUE(test::near_relative(p.gradient, test::fd_gradient(value, x), 1e-6));
        EXPECT_TRUE(test::near_relative(p.hessian, test::fd_jacobian(gradient, x), 1e-6));
        EXPECT_TRUE(p.hessian.isApprox(p.hessian.transpose(), 1e-14));
      }
    }
  }
}

TEST(JointPenalty, ZeroRestDistanceIsSmoothAtCoincidentPoints) {
  // l = 0: ½k‖x₀ − x₁‖², whose Hessian is k[I −I; −I I] everywhere, x₀ = x₁ included.
  const Vec3 p(0.2, -0.4, 1.0);
  const StencilDerivatives s = joint_penalty(PenaltyKind::distance, stack(p, p), 0.0, kStiffness);
  EXPECT_EQ(s.value, 0.0);
  EXPECT_EQ(s.gradient.norm(), 0.0);
  Mat12 expected = Mat12::Zero();
  expected.topLeftCorner<6, 6>() << Mat3::Identity(), -Mat3::Identity(), -Mat3::Identity(), Mat3::Identity();
  EXPECT_TRUE(test::near_relative(s.hessian, kStiffness * expected, 1e-15));
}

}  // namespace
}  // namespace affix
