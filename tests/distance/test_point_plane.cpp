#include <gtest/gtest.h>

#include "affix/distance/point_plane.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

const auto kValue = [](const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_plane_distance(p, t0, t1, t2);
};
const auto kGradient = [](const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_plane_distance_gradient(p, t0, t1, t2);
};
const auto kHessian = [](const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  return point_plane_distance_hessian(p, t0, t1, t2);
};

TEST(PointPlaneDistance, IsSquaredHeightAboveThePlane) {
  const Vec3 t0(0, 0, 1), t1(1, 0, 1), t2(0, 1, 1);
  EXPECT_NEAR(point_plane_distance(Vec3(0.2, 0.2, 3), t0, t1, t2), 4.0, 1e-13);
  // The plane is infinite: far outside the triangle, only the height counts.
  EXPECT_NEAR(point_plane_distance(Vec3(10, -10, -2), t0, t1, t2), 9.0, 1e-12);
  // Independent of the winding.
  EXPECT_NEAR(point_plane_distance(Vec3(10, -10, -2), t0, t2, t1), 9.0, 1e-12);
  // A tilted plane x + y + z = 1: the origin is at distance 1/sqrt(3).
  EXPECT_NEAR(point_plane_distance(Vec3::Zero(), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)), 1.0 / 3.0, 1e-14);
}

TEST(PointPlaneDistance, DerivativesMatchFiniteDifferences) {
  test::WorstFd worst("point_plane random");
  test::Rng rng(31);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p = test::random_point(rng), t0 = test::random_point(rng), t1 = test::random_point(rng),
               t2 = test::random_point(rng);
    // Scale: the triangle's smallest height, below which the plane's normal turns fast.
    const double area2 = (t1 - t0).cross(t2 - t0).norm();
    const double longest = std::max({(t1 - t0).norm(), (t2 - t1).norm(), (t0 - t2).norm()});
    const double scale = std::min(1.0, area2 / longest);
    test::check_derivatives<4>(kValue, kGradient, kHessian, test::stack(p, t0, t1, t2), 1e-5 * scale, 1e-6, 1e-6,
                               &worst);
  }
}

TEST(PointPlaneDistance, DerivativesMatchFiniteDifferencesNearDegenerateConfigurations) {
  // Slivers down to height/length 1e-3 and points down to 1e-6 from the plane: the normal turns on the
  // length thinness·|edge|, so the step follows it, and rounding bounds the finite differences near
  // 1e-6, hence the tolerance 1e-5.
  test::WorstFd worst("point_plane near plane / thin triangle");
  test::Rng rng(32);
  for (int i = 0; i < 300; ++i) {
    const Vec3 t0 = test::random_point(rng), a = test::random_unit(rng);
    const Vec3 side = test::orthogonal_unit(a, rng), normal = a.cross(side);
    const double thinness = std::pow(10.0, test::uniform(rng, -3.0, 0.0));  // height / length of a sliver
    const Vec3 t1 = t0 + a, t2 = t0 + test::uniform(rng, -0.5, 1.5) * a + thinness * side;
    const double height = std::pow(10.0, test::uniform(rng, -6.0, 0.0));  // almost on the plane
    // Over the triangle or near it, where the plane distance is the one used (P_T).
    const Vec3 p = t0 + test::uniform(rng, -0.25, 1.25) * (t1 - t0) + test::uniform(rng, -0.25, 1.25) * (t2 - t0) +
                   height * normal;
    test::check_derivatives<4>(kValue, kGradient, kHessian, test::stack(p, t0, t1, t2),
                               1e-6 * thinness, 1e-5, 1e-5, &worst);
  }
}

}  // namespace
}  // namespace affix
