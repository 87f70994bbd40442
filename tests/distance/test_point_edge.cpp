#include <gtest/gtest.h>

#include "affix/distance/point_edge.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

using PE = PointEdgeDistanceType;

TEST(PointEdgeDistance, ClosedForms) {
  const Vec3 e0(0, 0, 0), e1(2, 0, 0);
  EXPECT_NEAR(point_edge_distance(Vec3(1, 3, 4), e0, e1), 25.0, 1e-13);   // beside the interior
  EXPECT_NEAR(point_edge_distance(Vec3(-3, 4, 0), e0, e1), 25.0, 1e-13);  // beyond e0
  EXPECT_NEAR(point_edge_distance(Vec3(5, 0, 4), e0, e1), 25.0, 1e-13);   // beyond e1
  EXPECT_NEAR(point_edge_distance(Vec3(1.5, 0, 0), e0, e1), 0.0, 1e-15);  // on the edge
}

TEST(PointEdgeDistance, EqualsBruteForceMinimum) {
  test::Rng rng(51);
  constexpr int kSamples = 2001;
  double worst = 0.0;
  for (int i = 0; i < 5000; ++i) {
    const Vec3 e0 = test::random_point(rng);
    Vec3 e1 = test::random_point(rng);
    Vec3 p = test::random_point(rng, 2.0);
    if (i % 5 == 1) e1 = e0 + 1e-8 * test::random_unit(rng);                          // nearly degenerate edge
    if (i % 5 == 2) p = e0 + test::uniform(rng, -0.5, 1.5) * (e1 - e0);                // on the edge's line
    if (i % 5 == 3) p = e0 + 1e-7 * test::random_unit(rng);                            // almost on a vertex
    const double d = point_edge_distance(p, e0, e1);
    // Closed-form reference (clamped projection), and dense sampling of the segment.
    EXPECT_NEAR(d, test::reference_point_edge(p, e0, e1), 1e-14 * std::max(1.0, d)) << i;
    worst = std::max(worst, std::abs(d - test::reference_point_edge(p, e0, e1)));
    double sampled = std::numeric_limits<double>::infinity();
    for (int k = 0; k < kSamples; ++k) {
      sampled = std::min(sampled, (p - (e0 + (k / (kSamples - 1.0)) * (e1 - e0))).squaredNorm());
    }
    EXPECT_LE(d, sampled + 1e-14) << i;
    EXPECT_LE(std::sqrt(sampled) - std::sqrt(d), (e1 - e0).norm() / (kSamples - 1.0) + 1e-12) << i;
  }
  std::printf("[ brute force ] point_edge worst |d - reference| = %.2e\n", worst);
}

/// A configuration in the region of `type`; `near_boundary` puts the projection parameter within
/// 1e-6 of the region's boundary (inside it), `near_vertex` also brings the point within 1e-6 of the
/// edge's line, so that P_E0 / P_E1 points are almost on the vertex.
VecX configuration(PE type, bool near_boundary, bool near_vertex, test::Rng& rng) {
  const Vec3 e0 = test::random_point(rng);
  const Vec3 dir = test::random_unit(rng);
  const double length = test::uniform(rng, 0.1, 2.0);
  double t = 0.0;
  constexpr double kClose = 1e-6;
  switch (type) {
    case PE::P_E0: t = near_boundary ? -kClose : test::uniform(rng, -1.0, 0.0); break;
    case PE::P_E1: t = near_boundary ? 1.0 + kClose : test::uniform(rng, 1.0, 2.0); break;
    case PE::P_E: t = near_boundary ? (rng() % 2 ? kClose : 1.0 - kClose) : test::uniform(rng, 0.0, 1.0); break;
  }
  const double offset = (near_vertex ? kClose : test::uniform(rng, 0.05, 1.0)) * length;
  return test::stack(Vec3(e0 + t * length * dir + offset * test::orthogonal_unit(dir, rng)), e0,
                     Vec3(e0 + length * dir));
}

TEST(PointEdgeDistance, DerivativesMatchFiniteDifferencesInEveryRegion) {
  test::Rng rng(52);
  for (PE type : {PE::P_E0, PE::P_E1, PE::P_E}) {
    test::WorstFd worst(std::string("point_edge ") + to_string(type));
    for (int i = 0; i < 300; ++i) {
      const VecX x = configuration(type, i % 3 >= 1, i % 3 == 2, rng);
      const Vec3 p = x.segment<3>(0), e0 = x.segment<3>(3), e1 = x.segment<3>(6);
      ASSERT_EQ(point_edge_distance_type(p, e0, e1), type) << x.transpose();
      const auto value = [&](const Vec3& a, const Vec3& b, const Vec3& c) {
        return point_edge_distance(a, b, c, type);
      };
      const auto gradient = [&](const Vec3& a, const Vec3& b, const Vec3& c) {
        return point_edge_distance_gradient(a, b, c, type);
      };
      const auto hessian = [&](const Vec3& a, const Vec3& b, const Vec3& c) {
        return point_edge_distance_hessian(a, b, c, type);
      };
      test::check_derivatives<3>(value, gradient, hessian, x, 1e-7 * (e1 - e0).norm(), 1e-6, 1e-6, &worst);
    }
  }
}

TEST(PointEdgeDistance, UntypedOverloadsUseTheClassifiedType) {
  test::Rng rng(53);
  for (int i = 0; i < 200; ++i) {
    const Vec3 p = test::random_point(rng, 2.0), e0 = test::random_point(rng), e1 = test::random_point(rng);
    const PE type = point_edge_distance_type(p, e0, e1);
    EXPECT_EQ(point_edge_distance(p, e0, e1), point_edge_distance(p, e0, e1, type));
    EXPECT_EQ(point_edge_distance_gradient(p, e0, e1), point_edge_distance_gradient(p, e0, e1, type));
    EXPECT_EQ(point_edge_distance_hessian(p, e0, e1), point_edge_distance_hessian(p, e0, e1, type));
  }
}

TEST(PointEdgeDistance, VertexCasesTouchOnlyTheirVertices) {
  const Vec3 p(-1, 1, 0), e0(0, 0, 0), e1(2, 0, 0);
  const Vec9 g = point_edge_distance_gradient(p, e0, e1);
  EXPECT_EQ(g.segment<3>(6).norm(), 0.0);
  EXPECT_EQ(point_edge_distance_hessian(p, e0, e1).middleRows<3>(6).norm(), 0.0);
  EXPECT_TRUE(g.segment<3>(0).isApprox(2.0 * (p - e0)));
}

}  // namespace
}  // namespace affix
