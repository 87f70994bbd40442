#include <gtest/gtest.h>

#include "affix/energy/barrier.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kDhat = 1e-3;

TEST(Barrier, VanishesAtAndBeyondDhatAndGrowsWithoutBound) {
  EXPECT_EQ(barrier(kDhat, kDhat), 0.0);
  EXPECT_EQ(barrier(2 * kDhat, kDhat), 0.0);
  EXPECT_GT(barrier(1e-9, kDhat), barrier(1e-6, kDhat));
  EXPECT_GT(barrier(1e-300, kDhat), 1e-6 * 600);  // ~ d̂² · |ln d|
}

TEST(Barrier, DerivativesMatchFiniteDifferences) {
  for (double d : {1e-7, 1e-5, 2e-4, 5e-4, 9.9e-4}) {
    const double h = 1e-3 * std::min(d, kDhat - d);  // resolve the curvature near 0 and near d̂
    const double fd1 = (barrier(d + h, kDhat) - barrier(d - h, kDhat)) / (2 * h);
    const double fd2 = (barrier_first_derivative(d + h, kDhat) - barrier_first_derivative(d - h, kDhat)) / (2 * h);
    EXPECT_LT(barrier_first_derivative(d, kDhat), 0.0);
    EXPECT_NEAR(barrier_first_derivative(d, kDhat), fd1, 1e-5 * std::abs(fd1));
    EXPECT_GT(barrier_second_derivative(d, kDhat), 0.0);
    EXPECT_NEAR(barrier_second_derivative(d, kDhat), fd2, 1e-5 * std::abs(fd2));
  }
}

TEST(Barrier, IsTwiceContinuousAtDhat) {
  const double below = kDhat * (1 - 1e-7);
  EXPECT_NEAR(barrier(below, kDhat), 0.0, 1e-25);
  EXPECT_NEAR(barrier_first_derivative(below, kDhat), 0.0, 1e-15);
  EXPECT_NEAR(barrier_second_derivative(below, kDhat), 0.0, 1e-6);
}

}  // namespace
}  // namespace affix
