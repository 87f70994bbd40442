#include <gtest/gtest.h>

#include <array>

#include "affix/distance/point_triangle.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

using PT = PointTriangleDistanceType;

TEST(PointTriangleDistance, ClosedForms) {
  const Vec3 t0(1, 1, 2), t1(3, 1, 2), t2(1, 3, 2);  // right triangle in the plane z = 2
  EXPECT_NEAR(point_triangle_distance(Vec3(1.5, 1.5, 5), t0, t1, t2), 9.0, 1e-13);   // above: height²
  EXPECT_NEAR(point_triangle_distance(Vec3(1.5, 1.5, 2), t0, t1, t2), 0.0, 1e-15);   // on it
  EXPECT_NEAR(point_triangle_distance(Vec3(-1, 0, 0), t0, t1, t2), 9.0, 1e-13);      // beyond t0
  EXPECT_NEAR(point_triangle_distance(Vec3(5, 0, 2), t0, t1, t2), 5.0, 1e-13);       // beyond t1
  EXPECT_NEAR(point_triangle_distance(Vec3(2, -2, 6), t0, t1, t2), 25.0, 1e-13);     // beside edge t0 t1
  EXPECT_NEAR(point_triangle_distance(Vec3(3, 3, 2), t0, t1, t2), 2.0, 1e-13);       // beside the hypotenuse
}

/// Random configurations of several kinds, some degenerate, for the brute-force comparisons.
std::array<Vec3, 4> brute_force_configuration(int i, test::Rng& rng) {
  Vec3 t0 = test::random_point(rng), t1 = test::random_point(rng), t2 = test::random_point(rng);
  Vec3 p = test::random_point(rng, 2.0);
  const Vec3 n = (t1 - t0).cross(t2 - t0).normalized();
  switch (i % 8) {
    case 1: p -= (p - t0).dot(n) * n; break;                                   // in the triangle's plane
    case 2: p = t0 + 0.3 * (t1 - t0) + 0.3 * (t2 - t0) + 1e-7 * n; break;      // almost on the face
    case 3: p = t1 + 1e-7 * test::random_unit(rng); break;                     // almost on a vertex
    case 4: p = t1 + 0.4 * (t2 - t1) + 1e-7 * test::random_unit(rng); break;   // almost on an edge
    case 5: t2 = t0 + test::uniform(rng, -1, 2) * (t1 - t0) + 1e-9 * test::random_unit(rng); break;  // sliver
    case 6: t2 = t0 + test::uniform(rng, -1, 2) * (t1 - t0); break;            // collinear
    case 7: t2 = t1; break;                                                    // two vertices coincide
    default: break;
  }
  return {p, t0, t1, t2};
}

TEST(PointTriangleDistance, EqualsBruteForceMinimum) {
  test::Rng rng(61);
  double worst = 0.0;
  std::array<int, 7> type_counts{};
  for (int i = 0; i < 8000; ++i) {
    const auto [p, t0, t1, t2] = brute_force_configuration(i, rng);
    const double d = point_triangle_distance(p, t0, t1, t2);
    ++type_counts[static_cast<int>(point_triangle_distance_type(p, t0, t1, t2))];
    const double reference = test::reference_point_triangle(p, t0, t1, t2);
    EXPECT_NEAR(d, reference, 1e-13 * std::max(1.0, reference))
        << i << " type " << to_string(point_triangle_distance_type(p, t0, t1, t2));
    worst = std::max(worst, std::abs(d - reference));
  }
  for (int count : type_counts) EXPECT_GE(count, 100);  // every region was visited
  std::printf("[ brute force ] point_triangle worst |d - golden-section reference| = %.2e\n", worst);
}

TEST(PointTriangleDistance, IsTheMinimumOverADenseBarycentricGrid) {
  test::Rng rng(62);
  constexpr int kGrid = 200;
  for (int i = 0; i < 1000; ++i) {
    const auto [p, t0, t1, t2] = brute_force_configuration(i, rng);
    const double d = point_triangle_distance(p, t0, t1, t2);
    double sampled = std::numeric_limits<double>::infinity();
    for (int a = 0; a < kGrid; ++a) {
      for (int b = 0; a + b < kGrid; ++b) {
        const double u = a / (kGrid - 1.0), v = b / (kGrid - 1.0);
        sampled = std::min(sampled, (p - (t0 + u * (t1 - t0) + v * (t2 - t0))).squaredNorm());
      }
    }
    // No point of the triangle is closer than d, and some grid point is within the grid spacing of it.
    EXPECT_LE(d, sampled + 1e-14) << i;
    const double spacing = ((t1 - t0).norm() + (t2 - t0).norm()) / (kGrid - 1.0);
    EXPECT_LE(std::sqrt(sampled) - std::sqrt(d), spacing + 1e-12) << i;
  }
}

/// A well-shaped random triangle (smallest height at least a tenth of the longest edge).
std::array<Vec3, 3> random_triangle(test::Rng& rng) {
  while (true) {
    const Vec3 t0 = test::random_point(rng), t1 = test::random_point(rng), t2 = test::random_point(rng);
    const double longest = std::max({(t1 - t0).norm(), (t2 - t1).norm(), (t0 - t2).norm()});
    if (longest > 0.2 && (t1 - t0).cross(t2 - t0).norm() / longest > 0.1 * longest) return {t0, t1, t2};
  }
}

/// A point in the region of `type`. kind 0: anywhere in it; kind 1: within 1e-6 (relative) of the
/// region's boundary, inside; kind 2: also within 1e-6 of the feature itself (almost on the vertex,
/// edge or face).
Vec3 point_in_region(PT type, int kind, const std::array<Vec3, 3>& t, test::Rng& rng) {
  const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]).normalized();
  const double scale = (t[1] - t[0]).norm();
  constexpr double kClose = 1e-6;
  const double height = (kind == 2 ? kClose * scale : test::uniform(rng, 0.05, 1.0)) * (rng() % 2 ? 1.0 : -1.0);
  // Outward in-plane normal of edge i = (t_i, t_{i+1}).
  const auto outward = [&](int i) { return (t[(i + 1) % 3] - t[i]).cross(n).normalized(); };
  switch (type) {
    case PT::P_T: {
      double u = test::uniform(rng, 0.05, 0.9), v = test::uniform(rng, 0.05, 0.95 - u);
      if (kind >= 1) v = kClose;  // next to edge E2
      return t[0] + u * (t[1] - t[0]) + v * (t[2] - t[0]) + height * n;
    }
    case PT::P_E0:
    case PT::P_E1:
    case PT::P_E2: {
      const int i = static_cast<int>(type) - static_cast<int>(PT::P_E0);
      const double s = kind >= 1 && rng() % 2 ? kClose : test::uniform(rng, 0.05, 0.95);  // maybe next to t_i
      const double out = (kind >= 1 ? kClose : test::uniform(rng, 0.05, 1.0)) * scale;  // maybe next to the face
      return t[i] + s * (t[(i + 1) % 3] - t[i]) + out * outward(i) + height * n;
    }
    case PT::P_T0:
    case PT::P_T1:
    case PT::P_T2: {
      // The vertex's region is spanned by the outward normals of its two edges.
      const int j = static_cast<int>(type) - static_cast<int>(PT::P_T0);
      const double alpha = test::uniform(rng, 0.05, 1.0);
      const double beta = kind >= 1 ? kClose * alpha : test::uniform(rng, 0.05, 1.0);  // maybe next to an edge
      const double r = (kind == 2 ? kClose : test::uniform(rng, 0.1, 1.0)) * scale;
      const Vec3 dir = alpha * outward(j) + beta * outward((j + 2) % 3);
      return t[j] + r * dir.normalized() + height * n;
    }
  }
  return Vec3::Zero();
}

TEST(PointTriangleDistance, DerivativesMatchFiniteDifferencesInEveryRegion) {
  test::Rng rng(63);
  for (PT type : {PT::P_T0, PT::P_T1, PT::P_T2, PT::P_E0, PT::P_E1, PT::P_E2, PT::P_T}) {
    test::WorstFd worst(std::string("point_triangle ") + to_string(type));
    for (int i = 0; i < 300; ++i) {
      const auto t = random_triangle(rng);
      const Vec3 p = point_in_region(type, i % 3, t, rng);
      EXPECT_EQ(point_triangle_distance_type(p, t[0], t[1], t[2]), type) << i;
      const auto value = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
        return point_triangle_distance(a, b, c, d, type);
      };
      const auto gradient = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
        return point_triangle_distance_gradient(a, b, c, d, type);
      };
      const auto hessian = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
        return point_triangle_distance_hessian(a, b, c, d, type);
      };
      test::check_derivatives<4>(value, gradient, hessian, test::stack(p, t[0], t[1], t[2]),
                                 1e-7 * (t[1] - t[0]).norm(), 1e-6, 1e-6, &worst);
    }
  }
}

TEST(PointTriangleDistance, UntypedOverloadsUseTheClassifiedType) {
  test::Rng rng(64);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p = test::random_point(rng, 2.0), t0 = test::random_point(rng), t1 = test::random_point(rng),
               t2 = test::random_point(rng);
    const PT type = point_triangle_distance_type(p, t0, t1, t2);
    EXPECT_EQ(point_triangle_distance(p, t0, t1, t2), point_triangle_distance(p, t0, t1, t2, type));
    EXPECT_EQ(point_triangle_distance_gradient(p, t0, t1, t2), point_triangle_distance_gradient(p, t0, t1, t2, type));
    EXPECT_EQ(point_triangle_distance_hessian(p, t0, t1, t2), point_triangle_distance_hessian(p, t0, t1, t2, type));
  }
}

TEST(PointTriangleDistance, SubDistancesTouchOnlyTheirVertices) {
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  // Beside edge E1 = (t1, t2): t0 takes no part.
  const Vec3 p(1, 1, 0.5);
  ASSERT_EQ(point_triangle_distance_type(p, t0, t1, t2), PT::P_E1);
  EXPECT_EQ(point_triangle_distance_gradient(p, t0, t1, t2).segment<3>(3).norm(), 0.0);
  EXPECT_EQ(point_triangle_distance_hessian(p, t0, t1, t2).middleRows<3>(3).norm(), 0.0);
  EXPECT_GT(point_triangle_distance_gradient(p, t0, t1, t2).segment<3>(6).norm(), 0.0);
}

}  // namespace
}  // namespace affix
