#include <gtest/gtest.h>

#include "affix/distance/point_line.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

const auto kValue = [](const Vec3& p, const Vec3& e0, const Vec3& e1) { return point_line_distance(p, e0, e1); };
const auto kGradient = [](const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return point_line_distance_gradient(p, e0, e1);
};
const auto kHessian = [](const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return point_line_distance_hessian(p, e0, e1);
};

TEST(PointLineDistance, IsSquaredDistanceToTheInfiniteLine) {
  // Line along x: the distance ignores where along the line the point projects, even beyond the ends.
  EXPECT_NEAR(point_line_distance(Vec3(5, 3, 4), Vec3(0, 0, 0), Vec3(1, 0, 0)), 25.0, 1e-13);
  EXPECT_NEAR(point_line_distance(Vec3(-7, 0, 2), Vec3(0, 0, 0), Vec3(1, 0, 0)), 4.0, 1e-13);
  // Independent of the edge's length and orientation.
  EXPECT_NEAR(point_line_distance(Vec3(0.5, 1, 1), Vec3(3, 0, 0), Vec3(-2, 0, 0)), 2.0, 1e-13);
  EXPECT_NEAR(point_line_distance(Vec3(2, 2, 0), Vec3(1, 1, 0), Vec3(0, 0, 0)), 0.0, 1e-13);
  // A diagonal line: the point (1, 0, 0) is at distance sqrt(2/3) from the line through 0 along (1, 1, 1).
  EXPECT_NEAR(point_line_distance(Vec3(1, 0, 0), Vec3(0, 0, 0), Vec3(2, 2, 2)), 2.0 / 3.0, 1e-13);
}

TEST(PointLineDistance, DerivativesMatchFiniteDifferences) {
  test::WorstFd worst("point_line random");
  test::Rng rng(21);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p = test::random_point(rng), e0 = test::random_point(rng), e1 = test::random_point(rng);
    const double scale = std::min((e1 - e0).norm(), 1.0);
    test::check_derivatives<3>(kValue, kGradient, kHessian, test::stack(p, e0, e1), 1e-5 * scale, 1e-6, 1e-6,
                               &worst);
  }
}

TEST(PointLineDistance, DerivativesMatchFiniteDifferencesNearDegenerateConfigurations) {
  test::WorstFd worst("point_line near line / short edge");
  test::Rng rng(22);
  for (int i = 0; i < 300; ++i) {
    const Vec3 e0 = test::random_point(rng);
    const double length = std::pow(10.0, test::uniform(rng, -3.0, 0.0));  // down to short edges
    const Vec3 dir = test::random_unit(rng);
    const Vec3 e1 = e0 + length * dir;
    const double offset = length * std::pow(10.0, test::uniform(rng, -6.0, 0.0));  // almost on the line
    const Vec3 p = e0 + test::uniform(rng, -2.0, 3.0) * length * dir + offset * test::orthogonal_unit(dir, rng);
    test::check_derivatives<3>(kValue, kGradient, kHessian, test::stack(p, e0, e1), 1e-7 * length, 1e-6, 1e-6,
                               &worst);
  }
}

}  // namespace
}  // namespace affix
