#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "affix/energy/barrier.hpp"
#include "affix/energy/joint_limit_barrier.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kChat = 0.05, kKappa = 40.0, kBound = 0.8;

Vec6 pair(const Vec3& x0, const Vec3& x1) {
  Vec6 x;
  x << x0, x1;
  return x;
}

/// Two points whose limit function on `side` is c: the distance is bound − c (upper) or bound + c (lower).
Vec6 at_limit_value(double c, BoundSide side, int seed) {
  std::srand(seed);
  const Vec3 x1 = Vec3::Random(), dir = Vec3::Random().normalized();
  const double d = side == BoundSide::upper ? kBound - c : kBound + c;
  return pair(x1 + d * dir, x1);
}

TEST(JointLimitBarrier, LimitFunctionSigns) {
  const Vec6 x = pair({0.0, 0.0, 0.0}, {0.0, 0.0, 2.0});  // distance 2
  EXPECT_DOUBLE_EQ(limit_function(x, 3.0, BoundSide::upper), 1.0);   // inside an upper bound
  EXPECT_DOUBLE_EQ(limit_function(x, 3.0, BoundSide::lower), -1.0);  // violates a lower bound
  EXPECT_DOUBLE_EQ(limit_function(x, 1.5, BoundSide::upper), -0.5);  // violates an upper bound
  EXPECT_DOUBLE_EQ(limit_function(x, 1.5, BoundSide::lower), 0.5);   // inside a lower bound
  EXPECT_DOUBLE_EQ(limit_function(x, 2.0, BoundSide::upper), 0.0);
  EXPECT_DOUBLE_EQ(limit_function(x, 2.0, BoundSide::lower), 0.0);
}

TEST(JointLimitBarrier, ZeroAtAndBeyondChat) {
  const auto expect_zero = [](const PairDerivatives& p) {
    EXPECT_EQ(p.value, 0.0);
    EXPECT_EQ(p.gradient.norm(), 0.0);
    EXPECT_EQ(p.hessian.norm(), 0.0);
  };
  // Exactly at ĉ (binary fractions, so c = ĉ without rounding): distance 0.75 or 1.25, bound 1, ĉ = 1/4.
  expect_zero(joint_limit_barrier(pair({0.75, 0, 0}, {0, 0, 0}), 1.0, BoundSide::upper, 0.25, kKappa));
  expect_zero(joint_limit_barrier(pair({0, 1.25, 0}, {0, 0, 0}), 1.0, BoundSide::lower, 0.25, kKappa));
  for (const BoundSide side : {BoundSide::upper, BoundSide::lower}) {
    for (double c : {1.01 * kChat, 1.5 * kChat, 0.5}) {
      const Vec6 x = at_limit_value(c, side, 2);
      ASSERT_GE(limit_function(x, kBound, side), kChat);
      expect_zero(joint_limit_barrier(x, kBound, side, kChat, kKappa));
    }
  }
}

TEST(JointLimitBarrier, DerivativesMatchFiniteDifferences) {
  for (const BoundSide side : {BoundSide::upper, BoundSide::lower}) {
    for (double fraction : {0.01, 0.2, 0.5, 0.95}) {
      const double c = fraction * kChat;
      for (int seed = 1; seed <= 5; ++seed) {
        const VecX x = at_limit_value(c, side, seed);
        SCOPED_TRACE(::testing::Message() << (side == BoundSide::upper ? "upper" : "lower") << " c " << c
                                          << " seed " << seed);
        ASSERT_NEAR(limit_function(x, kBound, side), c, 1e-12);
        const auto value = [&](const VecX& y) { return joint_limit_barrier(y, kBound, side, kChat, kKappa).value; };
        const auto gradient = [&](const VecX& y) {
          return VecX(joint_limit_barrier(y, kBound, side, kChat, kKappa).gradient);
        };
        const PairDerivatives p = joint_limit_barrier(x, kBound, side, kChat, kKappa);
        ASSERT_GT(p.value, 0.0);
        ASSERT_GT(p.gradient.norm(), 0.0);
        const double h = 1e-4 * c;
        EXPECT_TRUE(test::near_relative(p.gradient, test::fd_gradient(value, x, h), 1e-5));
        EXPECT_TRUE(test::near_relative(p.hessian, test::fd_jacobian(gradient, x, h), 1e-5));
      }
    }
  }
}

TEST(JointLimitBarrier, GradientPushesAwayFromTheBound) {
  // The force −∇P on x₀ points along ∇c: inwards (towards x₁) for an upper bound, outwards for a lower.
  for (const BoundSide side : {BoundSide::upper, BoundSide::lower}) {
    const Vec6 x = at_limit_value(0.3 * kChat, side, 4);
    const Vec3 u = x.head<3>() - x.tail<3>();
    const Vec3 force0 = -joint_limit_barrier(x, kBound, side, kChat, kKappa).gradient.head<3>();
    EXPECT_GT((side == BoundSide::upper ? -1.0 : 1.0) * force0.dot(u), 0.0);
  }
}

TEST(JointLimitBarrier, GrowsWithoutBoundAsTheLimitIsApproached) {
  for (const BoundSide side : {BoundSide::upper, BoundSide::lower}) {
    double previous_value = 0.0, previous_force = 0.0;
    for (int k = 1; k <= 12; ++k) {
      const double c = kChat * std::pow(10.0, -k);
      const PairDerivatives p = joint_limit_barrier(at_limit_value(c, side, 3), kBound, side, kChat, kKappa);
      const double force = p.gradient.head<3>().norm();
      EXPECT_GT(p.value, previous_value);
      EXPECT_GT(force, previous_force);
      previous_value = p.value;
      previous_force = force;
    }
    // b ≈ ĉ² ln(ĉ/c) grows without bound; the force κ|b'| ≈ κĉ²/c like 1/c.
    EXPECT_GT(previous_value, 25.0 * kKappa * kChat * kChat);
    EXPECT_GT(previous_force, 0.5 * kKappa * kChat * 1e12);
  }
  EXPECT_EQ(barrier(0.0, kChat), std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace affix
