#include <gtest/gtest.h>

#include <array>

#include "affix/distance/edge_edge.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

using EE = EdgeEdgeDistanceType;
using Edges = std::array<Vec3, 4>;  // ea0, ea1, eb0, eb1

constexpr std::array<EE, 9> kAllTypes{EE::EA0_EB0, EE::EA0_EB1, EE::EA1_EB0, EE::EA1_EB1, EE::EA_EB0,
                                      EE::EA_EB1,  EE::EA0_EB,  EE::EA1_EB,  EE::EA_EB};

TEST(EdgeEdgeDistance, ClosedForms) {
  const Vec3 a0(1, 1, 1), a1(3, 1, 1);  // along x at y = z = 1
  EXPECT_NEAR(edge_edge_distance(a0, a1, Vec3(2, 0, 4), Vec3(2, 2, 4)), 9.0, 1e-13);  // crossing above
  EXPECT_NEAR(edge_edge_distance(a0, a1, Vec3(2, 0, 1), Vec3(2, 2, 1)), 0.0, 1e-15);  // intersecting
  EXPECT_NEAR(edge_edge_distance(a0, a1, Vec3(5, 0, 1), Vec3(5, 2, 1)), 4.0, 1e-13);  // beyond a1
  EXPECT_NEAR(edge_edge_distance(a0, a1, Vec3(4, 1, 5), Vec3(6, 1, 8)), 17.0, 1e-13); // a1 to eb0
  EXPECT_NEAR(edge_edge_distance(a0, a1, Vec3(0, 1, 2), Vec3(4, 1, 2)), 1.0, 1e-13);  // parallel, overlapping
}

/// Random edge pairs of several kinds, some degenerate, for the brute-force comparisons.
Edges brute_force_configuration(int i, test::Rng& rng) {
  Vec3 a0 = test::random_point(rng), a1 = test::random_point(rng), b0 = test::random_point(rng),
       b1 = test::random_point(rng);
  const Vec3 a = a1 - a0;
  switch (i % 9) {
    case 1: b1 = b0 + test::uniform(rng, -2, 2) * a; break;                                  // parallel
    case 2: b1 = b0 + test::uniform(rng, -2, 2) * a + 1e-5 * test::random_unit(rng); break;  // nearly parallel
    case 3: b1 = b0 + test::uniform(rng, -2, 2) * a + 1e-9 * test::random_unit(rng); break;  // more nearly
    case 4: {  // coplanar
      const Vec3 n = a.cross(b0 - a0).normalized();
      b1 -= (b1 - a0).dot(n) * n;
      break;
    }
    case 5: {  // crossing within 1e-7
      const Vec3 x = a0 + test::uniform(rng, 0, 1) * a;
      const Vec3 dir = test::random_unit(rng);
      b0 = x - test::uniform(rng, 0.1, 1) * dir + 1e-7 * test::random_unit(rng);
      b1 = x + test::uniform(rng, 0.1, 1) * dir;
      break;
    }
    case 6: b1 = b0; break;                                                           // degenerate b
    case 7:  // collinear
      b0 = a0 + test::uniform(rng, -0.5, 1.5) * a;
      b1 = a0 + test::uniform(rng, -0.5, 1.5) * a;
      break;
    default: break;
  }
  return {a0, a1, b0, b1};
}

TEST(EdgeEdgeDistance, EqualsBruteForceMinimum) {
  test::Rng rng(71);
  double worst = 0.0;
  std::array<int, 9> type_counts{};
  for (int i = 0; i < 9000; ++i) {
    const auto [a0, a1, b0, b1] = brute_force_configuration(i, rng);
    const double d = edge_edge_distance(a0, a1, b0, b1);
    ++type_counts[static_cast<int>(edge_edge_distance_type(a0, a1, b0, b1))];
    const double reference = test::reference_edge_edge(a0, a1, b0, b1);
    EXPECT_NEAR(d, reference, 1e-13 * std::max(1.0, reference))
        << i << " type " << to_string(edge_edge_distance_type(a0, a1, b0, b1));
    worst = std::max(worst, std::abs(d - reference));
  }
  for (int count : type_counts) EXPECT_GE(count, 100);  // every case was visited
  std::printf("[ brute force ] edge_edge worst |d - golden-section reference| = %.2e\n", worst);
}

TEST(EdgeEdgeDistance, IsTheMinimumOverADenseParameterGrid) {
  test::Rng rng(72);
  constexpr int kGrid = 200;
  for (int i = 0; i < 1000; ++i) {
    const auto [a0, a1, b0, b1] = brute_force_configuration(i, rng);
    const double d = edge_edge_distance(a0, a1, b0, b1);
    double sampled = std::numeric_limits<double>::infinity();
    for (int j = 0; j < kGrid; ++j) {
      const Vec3 x = a0 + (j / (kGrid - 1.0)) * (a1 - a0);
      for (int k = 0; k < kGrid; ++k) {
        sampled = std::min(sampled, (x - b0 - (k / (kGrid - 1.0)) * (b1 - b0)).squaredNorm());
      }
    }
    EXPECT_LE(d, sampled + 1e-14) << i;
    const double spacing = ((a1 - a0).norm() + (b1 - b0).norm()) / (kGrid - 1.0);
    EXPECT_LE(std::sqrt(sampled) - std::sqrt(d), spacing + 1e-12) << i;
  }
}

/// Edges whose lines' closest points are ea0 + s a and eb0 + t b, at distance `gap` along the common
/// normal, with the angle `angle` between them.
Edges lines_with_closest_points(double s, double t, double gap, double angle, test::Rng& rng) {
  const Vec3 a0 = test::random_point(rng), a_dir = test::random_unit(rng);
  const Vec3 normal = test::orthogonal_unit(a_dir, rng), side = normal.cross(a_dir);
  const Vec3 b_dir = std::cos(angle) * a_dir + std::sin(angle) * side;
  const double la = test::uniform(rng, 0.3, 1.5), lb = test::uniform(rng, 0.3, 1.5);
  const Vec3 b0 = a0 + s * la * a_dir + gap * normal - t * lb * b_dir;
  return {a0, Vec3(a0 + la * a_dir), b0, Vec3(b0 + lb * b_dir)};
}

/// Checks the derivatives of the sub-distance of `type` at `e` by finite differences.
void check_type_derivatives(EE type, const Edges& e, double h, double tol, test::WorstFd& worst) {
  const auto value = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    return edge_edge_distance(a, b, c, d, type);
  };
  const auto gradient = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    return edge_edge_distance_gradient(a, b, c, d, type);
  };
  const auto hessian = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    return edge_edge_distance_hessian(a, b, c, d, type);
  };
  test::check_derivatives<4>(value, gradient, hessian, test::stack(e[0], e[1], e[2], e[3]), h, tol, tol, &worst);
}

TEST(EdgeEdgeDistance, DerivativesMatchFiniteDifferencesForEveryType) {
  // Random segments visit every type; the check uses the classified type's sub-distance.
  test::Rng rng(73);
  std::array<int, 9> counts{};
  test::WorstFd worst("edge_edge random, every type");
  while (*std::min_element(counts.begin(), counts.end()) < 100) {
    const Edges e{test::random_point(rng), test::random_point(rng), test::random_point(rng), test::random_point(rng)};
    const EE type = edge_edge_distance_type(e[0], e[1], e[2], e[3]);
    if (counts[static_cast<int>(type)]++ >= 100) continue;
    const double shortest = std::min((e[1] - e[0]).norm(), (e[3] - e[2]).norm());
    const double sin_angle = (e[1] - e[0]).normalized().cross((e[3] - e[2]).normalized()).norm();
    if (type == EE::EA_EB && sin_angle < 0.03) continue;  // nearly parallel: the next test
    check_type_derivatives(type, e, 1e-7 * std::min(shortest, 1.0), 1e-6, worst);
  }
}

TEST(EdgeEdgeDistance, DerivativesMatchFiniteDifferencesOnBothSidesOfTypeBoundaries) {
  // The lines' closest points just inside or just outside an edge's end: s or t = 0 ± δ or 1 ± δ.
  test::Rng rng(74);
  test::WorstFd worst("edge_edge near type boundaries");
  constexpr double kDelta = 1e-6;
  const std::array<std::array<double, 2>, 8> st{{{-kDelta, 0.5}, {kDelta, 0.5}, {1 - kDelta, 0.5}, {1 + kDelta, 0.5},
                                                 {0.5, -kDelta}, {0.5, kDelta}, {0.5, 1 - kDelta}, {0.5, 1 + kDelta}}};
  const std::array<EE, 8> expected{EE::EA0_EB, EE::EA_EB, EE::EA_EB, EE::EA1_EB,
                                   EE::EA_EB0, EE::EA_EB, EE::EA_EB, EE::EA_EB1};
  for (int i = 0; i < 400; ++i) {
    const int k = i % 8;
    const double gap = i % 3 == 0 ? kDelta : test::uniform(rng, 0.05, 1.0);  // sometimes almost touching
    const Edges e = lines_with_closest_points(st[k][0], st[k][1] + test::uniform(rng, -0.3, 0.3) * (k < 4),
                                              gap, test::uniform(rng, 0.3, 1.5), rng);
    ASSERT_EQ(edge_edge_distance_type(e[0], e[1], e[2], e[3]), expected[k]) << i;
    check_type_derivatives(expected[k], e, 1e-7, 1e-6, worst);
  }
}

TEST(EdgeEdgeDistance, DerivativesMatchFiniteDifferencesAtVertexCaseBoundaries) {
  // ea0 against edge b, its projection on b just before (EA0_EB0) or just after (EA0_EB) eb0; eb0 is
  // beyond ea0 on a's line, so that ea0 stays a's closest feature.
  test::Rng rng(75);
  test::WorstFd worst("edge_edge vertex-vertex / vertex-edge");
  for (int i = 0; i < 200; ++i) {
    const Vec3 ea0 = test::random_point(rng), b_dir = test::random_unit(rng);
    const Vec3 u = test::orthogonal_unit(b_dir, rng);  // ea0 - eb0 is along u: projection parameter 0
    const double r = i % 4 == 0 ? 1e-6 : test::uniform(rng, 0.1, 1.0);  // sometimes almost on the vertex
    const double phi = test::uniform(rng, 0.2, 1.3);
    const Vec3 a_dir = std::cos(phi) * u + std::sin(phi) * test::orthogonal_unit(u, rng);  // u · a > 0
    const Vec3 eb0_on = ea0 - r * u;
    const double shift = (i % 2 ? 1.0 : -1.0) * 1e-6 * r;
    const Edges e{ea0, Vec3(ea0 + a_dir), Vec3(eb0_on - shift * b_dir), Vec3(eb0_on + (1.0 - shift) * b_dir)};
    const EE expected = shift > 0 ? EE::EA0_EB : EE::EA0_EB0;
    ASSERT_EQ(edge_edge_distance_type(e[0], e[1], e[2], e[3]), expected) << i;
    check_type_derivatives(expected, e, 1e-7, 1e-6, worst);
  }
}

TEST(EdgeEdgeDistance, DerivativesMatchFiniteDifferencesForNearlyParallelEdges) {
  // Crossing at angles from 1e-1 down to 1e-4 (sin² from 1e-2 to 1e-8, well into the mollifier's range
  // sin² < 1e-3), gaps from 1 down to 1e-6. The line-line derivatives vary on the length angle·|edge|,
  // so the step shrinks with the angle; rounding in the value then limits the finite differences to
  // about 1e-6, hence the relaxed tolerance (as in test_line_line). With the lines' closest points just
  // outside edge a, the case is point-edge, which stays well conditioned.
  test::Rng rng(76);
  test::WorstFd worst_interior("edge_edge nearly parallel EA_EB");
  test::WorstFd worst_outside("edge_edge nearly parallel, outside");
  for (int i = 0; i < 400; ++i) {
    const double angle = std::pow(10.0, test::uniform(rng, -4.0, -1.0));
    const double gap = std::pow(10.0, test::uniform(rng, -6.0, 0.0));
    const bool outside = i % 2 == 1;
    const double s = outside ? -1e-3 : test::uniform(rng, 0.05, 0.95);
    const Edges e = lines_with_closest_points(s, test::uniform(rng, 0.05, 0.95), gap, angle, rng);
    const EE type = edge_edge_distance_type(e[0], e[1], e[2], e[3]);
    if (outside) {
      ASSERT_NE(type, EE::EA_EB) << i;
      check_type_derivatives(type, e, 1e-7, 1e-6, worst_outside);
    } else {
      ASSERT_EQ(type, EE::EA_EB) << i;
      check_type_derivatives(type, e, 1e-6 * angle, 1e-5, worst_interior);
    }
  }
}

TEST(EdgeEdgeDistance, UntypedOverloadsUseTheClassifiedType) {
  test::Rng rng(77);
  for (int i = 0; i < 500; ++i) {
    const Vec3 a0 = test::random_point(rng), a1 = test::random_point(rng), b0 = test::random_point(rng),
               b1 = test::random_point(rng);
    const EE type = edge_edge_distance_type(a0, a1, b0, b1);
    EXPECT_EQ(edge_edge_distance(a0, a1, b0, b1), edge_edge_distance(a0, a1, b0, b1, type));
    EXPECT_EQ(edge_edge_distance_gradient(a0, a1, b0, b1), edge_edge_distance_gradient(a0, a1, b0, b1, type));
    EXPECT_EQ(edge_edge_distance_hessian(a0, a1, b0, b1), edge_edge_distance_hessian(a0, a1, b0, b1, type));
  }
}

TEST(EdgeEdgeDistance, SubDistancesTouchOnlyTheirVertices) {
  const Vec3 a0(0, 0, 0), a1(1, 0, 0);
  for (EE type : kAllTypes) {
    // Vertices a type leaves out get zero gradient rows.
    const Vec3 b0(0.3, -1, 1), b1(0.6, 1, 2);
    const Vec12 g = edge_edge_distance_gradient(a0, a1, b0, b1, type);
    const Mat12 H = edge_edge_distance_hessian(a0, a1, b0, b1, type);
    const std::array<bool, 4> used{
        type != EE::EA1_EB0 && type != EE::EA1_EB1 && type != EE::EA1_EB,
        type != EE::EA0_EB0 && type != EE::EA0_EB1 && type != EE::EA0_EB,
        type != EE::EA0_EB1 && type != EE::EA1_EB1 && type != EE::EA_EB1,
        type != EE::EA0_EB0 && type != EE::EA1_EB0 && type != EE::EA_EB0};
    for (int v = 0; v < 4; ++v) {
      EXPECT_EQ(g.segment<3>(3 * v).norm() > 0.0, used[v]) << to_string(type) << " vertex " << v;
      EXPECT_EQ(H.middleRows<3>(3 * v).norm() > 0.0, used[v]) << to_string(type) << " vertex " << v;
    }
  }
}

}  // namespace
}  // namespace affix
