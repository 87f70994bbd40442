// Normalising without overflow or underflow: the direction of a vector is found for every finite,
// non-zero vector, from subnormal to the largest doubles.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "affix/math/normalize.hpp"

namespace affix {
namespace {

constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Normalize, DirectionOfOrdinaryVectorsMatchesEigen) {
  for (const Vec3& v : {Vec3(1, 2, 3), Vec3(-0.5, 0, 1e-3), Vec3(0, 0, -7)}) {
    const auto unit = normalized_direction(v);
    ASSERT_TRUE(unit);
    EXPECT_LT((*unit - v.normalized()).norm(), 1e-15);
  }
}

TEST(Normalize, DirectionOfHugeAndTinyVectors) {
  const Vec3 diagonal = Vec3(1, 1, 0).normalized();
  for (const double scale : {1e200, 1e300, kMax, 1e-200, 1e-310, kDenormMin}) {
    SCOPED_TRACE(scale);
    const auto unit = normalized_direction(scale * Vec3(1, 1, 0));
    ASSERT_TRUE(unit);
    EXPECT_LT((*unit - diagonal).norm(), 1e-15);
  }
  EXPECT_EQ(*normalized_direction(Vec3(0, kDenormMin, 0)), Vec3::UnitY());
  EXPECT_EQ(*normalized_direction(Vec3(-kMax, 0, 0)), -Vec3::UnitX());
}

TEST(Normalize, ZeroAndNonFiniteHaveNoDirection) {
  EXPECT_FALSE(normalized_direction(Vec3::Zero()));
  EXPECT_FALSE(normalized_direction(Vec3(-0.0, 0.0, -0.0)));
  EXPECT_FALSE(normalized_direction(Vec3(kInf, 0, 0)));
  EXPECT_FALSE(normalized_direction(Vec3(std::nan(""), 1, 0)));
}

TEST(Normalize, Quaternions) {
  const auto q = normalized_quaternion(Quat(1e200, 1e200, 0, 0));
  ASSERT_TRUE(q);
  EXPECT_NEAR(q->w(), std::sqrt(0.5), 2e-16);
  EXPECT_NEAR(q->x(), std::sqrt(0.5), 2e-16);
  EXPECT_EQ(normalized_quaternion(Quat(1e-200, 0, 0, 0))->coeffs(), Quat::Identity().coeffs());
  EXPECT_EQ(normalized_quaternion(Quat(kDenormMin, 0, 0, 0))->coeffs(), Quat::Identity().coeffs());
  EXPECT_NEAR(normalized_quaternion(Quat(kMax, kMax, kMax, -kMax))->norm(), 1.0, 1e-15);
  EXPECT_FALSE(normalized_quaternion(Quat(0, 0, 0, 0)));
  EXPECT_FALSE(normalized_quaternion(Quat(kInf, 0, 0, 0)));
}

TEST(Normalize, ScaledNorm) {
  EXPECT_DOUBLE_EQ(scaled_norm(Vec3(3, 4, 0)), 5.0);
  EXPECT_DOUBLE_EQ(scaled_norm(Vec3(3e300, 4e300, 0)), 5e300);
  EXPECT_DOUBLE_EQ(scaled_norm(Vec3(3e-300, 0, 4e-300)), 5e-300);
  EXPECT_EQ(scaled_norm(Vec3::Zero()), 0.0);
  EXPECT_EQ(scaled_norm(Vec3(kMax, kMax, 0)), kInf);  // the true norm is beyond any double
  EXPECT_EQ(scaled_norm(Vec3(-kInf, 0, 0)), kInf);
}

}  // namespace
}  // namespace affix
