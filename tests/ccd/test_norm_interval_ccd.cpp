// The joint-limit CCD against dense sampling of t (DESIGN §6) and against hand-solved cases.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "affix/ccd/norm_interval_ccd.hpp"
#include "ccd/brute_force.hpp"

namespace affix {
namespace {

using test::kInf;
using test::Random;

constexpr int kCases = 400;
constexpr int kSamples = 100000;
constexpr double kRoundoff = 1e-12;  // relative slack for the root being rounded to a double

struct Case {
  Vec3 d0, dd;
  double r_min, r_max;

  double norm_at(double t) const { return (d0 + t * dd).norm(); }
  /// Outside [r_min, r_max] by more than rounding.
  bool violates(double t) const {
    const double n = norm_at(t);
    return n < r_min * (1.0 - kRoundoff) || n > r_max * (1.0 + kRoundoff);
  }
  double alpha() const { return norm_interval_max_step(d0, dd, r_min, r_max); }
  std::string str() const {
    std::ostringstream o;
    o << std::setprecision(17) << "d0 (" << d0.transpose() << ") dd (" << dd.transpose() << ") r [" << r_min << ", "
      << r_max << "]";
    return o.str();
  }
};

Case random_case(Random& random) {
  Case c;
  c.d0 = random.in_cube(2.0);
  while (c.d0.norm() < 1e-3) c.d0 = random.in_cube(2.0);
  const double n0 = c.d0.norm();
  c.r_min = random.chance(0.15) ? 0.0 : n0 * random.uniform(0.05, 0.95);
  c.r_max = random.chance(0.15) ? kInf : n0 * random.uniform(1.05, 3.0);
  const double speed = n0 * random.log_uniform(0.05, 6.0);
  if (random.chance(0.2)) {
    c.dd = -random.uniform(0.2, 3.0) * n0 * c.d0.normalized();  // straight at the centre (and through it)
  } else if (random.chance(0.2)) {
    c.dd = speed * random.unit_orthogonal(c.d0.normalized());  // tangential start
  } else {
    c.dd = speed * random.unit();
  }
  return c;
}

TEST(NormIntervalCcd, SafeAndTightAgainstDenseSampling) {
  Random random(20240611);
  int limited = 0, by_r_min = 0, by_r_max = 0;
  for (int i = 0; i < kCases; ++i) {
    const Case c = random_case(random);
    SCOPED_TRACE(c.str());
    const double alpha = c.alpha();
    ASSERT_GE(alpha, 0.0);
    ASSERT_LE(alpha, 1.0);
    // Safe: no sample of [0, α] (α itself included) leaves the interval.
    const int safe_samples = static_cast<int>(std::ceil(alpha * kSamples));
    for (int k = 0; k <= safe_samples; ++k) {
      const double t = std::min(alpha, static_cast<double>(k) / kSamples);
      ASSERT_FALSE(c.violates(t)) << "t = " << t << ", alpha = " << alpha << ", |d| = " << c.norm_at(t);
    }
    if (alpha == 1.0) continue;
    // Tight: a violation occurs within 1e-3 after α (sampled 1e4 times there).
    ++limited;
    bool found = false;
    for (int k = 1; k <= 10000 && !found; ++k) found = c.violates(alpha + k * 1e-7);
    EXPECT_TRUE(found) << "alpha = " << alpha;
    (c.norm_at(alpha) < 0.5 * (c.r_min + c.d0.norm()) ? by_r_min : by_r_max) += 1;
  }
  // The generator exercises both kinds of stop and unlimited steps.
  EXPECT_GT(limited, kCases / 5);
  EXPECT_LT(limited, kCases);
  EXPECT_GT(by_r_min, 20);
  EXPECT_GT(by_r_max, 20);
}

TEST(NormIntervalCcd, UnlimitedStepsAgreeWithDenseSampling) {
  // When no sample of [0, 1] comes near either bound, the step is exactly 1.
  Random random(7);
  int unlimited = 0;
  for (int i = 0; i < kCases; ++i) {
    const Case c = random_case(random);
    bool clear = true;
    for (int k = 0; k <= kSamples && clear; k += 10) {
      const double n = c.norm_at(static_cast<double>(k) / kSamples);
      clear = n > c.r_min * (1.0 + 1e-3) + 1e-9 && n < c.r_max * (1.0 - 1e-3);
    }
    if (!clear) continue;
    ++unlimited;
    EXPECT_EQ(c.alpha(), 1.0) << c.str();
  }
  EXPECT_GT(unlimited, kCases / 10);
}

TEST(NormIntervalCcd, MovingStraightThrough) {
  // |d(t)| = |2 − 4t| reaches r_min = 1 at t = 1/4 (and would pass the centre at t = 1/2).
  EXPECT_DOUBLE_EQ(norm_interval_max_step({2, 0, 0}, {-4, 0, 0}, 1.0, 3.0), 0.25);
  // |d(t)| = 2 + 4t reaches r_max = 3 at t = 1/4.
  EXPECT_DOUBLE_EQ(norm_interval_max_step({2, 0, 0}, {4, 0, 0}, 1.0, 3.0), 0.25);
  // Off-centre: d(t) = (3 − 8t, 0, 4): |d| = 5 at t = 0, r_min = 4.5 where (3 − 8t)² = 4.25.
  EXPECT_NEAR(norm_interval_max_step({3, 0, 4}, {-8, 0, 0}, 4.5, 10.0), (3.0 - std::sqrt(4.25)) / 8.0, 1e-15);
}

TEST(NormIntervalCcd, TangentPass) {
  // d(t) = (2t − 1, 1, 0): |d|² = (2t − 1)² + 1 touches r_min = 1 at t = 1/2 without going below.
  EXPECT_EQ(norm_interval_max_step({-1, 1, 0}, {2, 0, 0}, 1.0, 2.0), 1.0);
  // A slightly larger r_min is entered just before t = 1/2.
  const double r = 1.001;
  EXPECT_NEAR(norm_interval_max_step({-1, 1, 0}, {2, 0, 0}, r, 2.0), (1.0 - std::sqrt(r * r - 1.0)) / 2.0, 1e-14);
  // Moving tangentially at the start: |d| only grows, so only r_max limits; |d|² = 1 + 4t² = 4 at √3/2.
  EXPECT_NEAR(norm_interval_max_step({1, 0, 0}, {0, 2, 0}, 0.9, 2.0), std::sqrt(3.0) / 2.0, 1e-15);
}

TEST(NormIntervalCcd, StayingInsideReturnsExactlyOne) {
  EXPECT_EQ(norm_interval_max_step({1, 0, 0}, {0, 0.5, 0}, 0.5, 2.0), 1.0);
  EXPECT_EQ(norm_interval_max_step({1, 0, 0}, {-0.49, 0, 0}, 0.5, 2.0), 1.0);
  EXPECT_EQ(norm_interval_max_step({1, 2, 3}, Vec3::Zero(), 0.5, 4.0), 1.0);  // no motion
  // Exactly reaching a bound at t = 1 is allowed: r_min ≤ |d| ≤ r_max is closed.
  EXPECT_EQ(norm_interval_max_step({1, 0, 0}, {1, 0, 0}, 0.5, 2.0), 1.0);
}

TEST(NormIntervalCcd, UnboundedAbove) {
  EXPECT_EQ(norm_interval_max_step({1, 0, 0}, {100, 0, 0}, 0.5, kInf), 1.0);
  EXPECT_EQ(norm_interval_max_step({1, 0, 0}, {3, -40, 7}, 0.0, kInf), 1.0);
  EXPECT_DOUBLE_EQ(norm_interval_max_step({1, 0, 0}, {-1, 0, 0}, 0.5, kInf), 0.5);
}

TEST(NormIntervalCcd, ZeroLowerBound) {
  // Passing through the centre touches |d| = 0 ≥ r_min = 0: allowed; r_max = 1.5 is reached at t = 5/6.
  EXPECT_EQ(norm_interval_max_step({1, 0, 0}, {-2, 0, 0}, 0.0, 1.5), 1.0);
  EXPECT_NEAR(norm_interval_max_step({1, 0, 0}, {-3, 0, 0}, 0.0, 1.5), 5.0 / 6.0, 1e-15);
  EXPECT_EQ(norm_interval_max_step({0.3, -0.2, 0.1}, {-0.6, 0.4, -0.2}, 0.0, 1.0), 1.0);
}

}  // namespace
}  // namespace affix
