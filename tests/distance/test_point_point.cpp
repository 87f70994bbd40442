#include <gtest/gtest.h>

#include "affix/distance/point_point.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

const auto kValue = [](const Vec3& a, const Vec3& b) { return point_point_distance(a, b); };
const auto kGradient = [](const Vec3& a, const Vec3& b) { return point_point_distance_gradient(a, b); };
const auto kHessian = [](const Vec3& a, const Vec3& b) { return point_point_distance_hessian(a, b); };

TEST(PointPointDistance, IsSquaredEuclideanDistance) {
  EXPECT_DOUBLE_EQ(point_point_distance(Vec3(1, 2, 3), Vec3(4, 6, 3)), 25.0);
  EXPECT_DOUBLE_EQ(point_point_distance(Vec3(1, 2, 3), Vec3(1, 2, 3)), 0.0);
  EXPECT_DOUBLE_EQ(point_point_distance(Vec3(-1, 0, 0), Vec3(0, 0, 2)), 5.0);
}

TEST(PointPointDistance, GradientIsZeroAtCoincidentPoints) {
  EXPECT_EQ(point_point_distance_gradient(Vec3(1, 2, 3), Vec3(1, 2, 3)).norm(), 0.0);
}

TEST(PointPointDistance, DerivativesMatchFiniteDifferences) {
  test::WorstFd worst("point_point");
  test::Rng rng(11);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p0 = test::random_point(rng);
    // Separations from far apart down to almost coincident.
    const double separation = std::pow(10.0, test::uniform(rng, -6.0, 0.5));
    const Vec3 p1 = p0 + separation * test::random_unit(rng);
    test::check_derivatives<2>(kValue, kGradient, kHessian, test::stack(p0, p1), 1e-5, 1e-8, 1e-8,
                               &worst);
  }
}

}  // namespace
}  // namespace affix
