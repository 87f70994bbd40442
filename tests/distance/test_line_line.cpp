#include <gtest/gtest.h>

#include "affix/distance/line_line.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

const auto kValue = [](const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  return line_line_distance(a0, a1, b0, b1);
};
const auto kGradient = [](const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  return line_line_distance_gradient(a0, a1, b0, b1);
};
const auto kHessian = [](const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  return line_line_distance_hessian(a0, a1, b0, b1);
};

TEST(LineLineDistance, IsSquaredDistanceBetweenInfiniteLines) {
  // The x axis and a line along y at height 3: distance 3, wherever the segments themselves lie.
  EXPECT_NEAR(line_line_distance(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(5, 7, 3), Vec3(5, 8, 3)), 9.0, 1e-12);
  EXPECT_NEAR(line_line_distance(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(5, 8, 3), Vec3(5, 7, 3)), 9.0, 1e-12);
  // Intersecting lines.
  EXPECT_NEAR(line_line_distance(Vec3(-1, -1, 0), Vec3(1, 1, 0), Vec3(1, -1, 0), Vec3(-1, 1, 0)), 0.0, 1e-14);
  // Skew lines x = (t, 0, 0) and (0, s, 1 + s) are closest along z at the origin: (0, -0.5, 0.5) gives 1/2.
  EXPECT_NEAR(line_line_distance(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1), Vec3(0, 1, 2)), 0.5, 1e-14);
}

TEST(LineLineDistance, DerivativesMatchFiniteDifferences) {
  test::WorstFd worst("line_line random");
  test::Rng rng(41);
  for (int i = 0; i < 500; ++i) {
    const Vec3 a0 = test::random_point(rng), a1 = test::random_point(rng), b0 = test::random_point(rng),
               b1 = test::random_point(rng);
    const Vec3 a = a1 - a0, b = b1 - b0;
    const double sin_angle = a.cross(b).norm() / (a.norm() * b.norm());
    const double scale = std::min({1.0, a.norm(), b.norm()}) * sin_angle;
    test::check_derivatives<4>(kValue, kGradient, kHessian, test::stack(a0, a1, b0, b1), 1e-5 * scale, 1e-6, 1e-6,
                               &worst);
  }
}

TEST(LineLineDistance, DerivativesMatchFiniteDifferencesForNearlyParallelAndNearlyTouchingLines) {
  // Angles down to 1e-4 (sin² 1e-8, deep in the mollifier's range) and gaps down to 1e-6. The derivatives
  // vary on the length angle·|edge|, so the step follows the angle; with a tiny gap the gradient is tiny
  // too and rounding in the value bounds the finite differences' accuracy near 1e-6, hence 1e-5 here.
  // (Against 60-digit arithmetic the analytic gradient and Hessian agree to about 1e-11 in such cases.)
  test::WorstFd worst("line_line nearly parallel / touching");
  test::Rng rng(42);
  for (int i = 0; i < 300; ++i) {
    const Vec3 a0 = test::random_point(rng), dir = test::random_unit(rng);
    const Vec3 side = test::orthogonal_unit(dir, rng), normal = dir.cross(side);
    const double angle = std::pow(10.0, test::uniform(rng, -4.0, 0.0));
    const double gap = std::pow(10.0, test::uniform(rng, -6.0, 0.0));
    const Vec3 a1 = a0 + test::uniform(rng, 0.5, 1.5) * dir;
    const Vec3 b0 = a0 + test::uniform(rng, -1, 1) * dir + gap * normal;
    const Vec3 b1 = b0 + test::uniform(rng, 0.5, 1.5) * (std::cos(angle) * dir + std::sin(angle) * side);
    test::check_derivatives<4>(kValue, kGradient, kHessian, test::stack(a0, a1, b0, b1),
                               1e-6 * angle, 1e-5, 1e-5, &worst);
  }
}

}  // namespace
}  // namespace affix
