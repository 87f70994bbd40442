#include <gtest/gtest.h>

#include "affix/distance/edge_edge_mollifier.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

/// Edges from a0 of lengths la and lb at the angle `angle`, not touching.
std::array<Vec3, 4> edges_at_angle(double angle, double la, double lb, test::Rng& rng) {
  const Vec3 a0 = test::random_point(rng), dir = test::random_unit(rng);
  const Vec3 side = test::orthogonal_unit(dir, rng), normal = dir.cross(side);
  const Vec3 b0 = a0 + test::uniform(rng, -0.5, 0.5) * dir + test::uniform(rng, 0.1, 1.0) * normal;
  return {a0, Vec3(a0 + la * dir), b0, Vec3(b0 + lb * (std::cos(angle) * dir + std::sin(angle) * side))};
}

TEST(EdgeEdgeMollifier, CrossSquaredNormAndThresholdClosedForms) {
  EXPECT_DOUBLE_EQ(edge_edge_cross_squarednorm(Vec3(1, 1, 1), Vec3(3, 1, 1), Vec3(0, 0, 5), Vec3(0, 3, 5)), 36.0);
  EXPECT_DOUBLE_EQ(edge_edge_cross_squarednorm(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1), Vec3(1, 1, 1)), 1.0);
  EXPECT_DOUBLE_EQ(edge_edge_cross_squarednorm(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 1), Vec3(3, 2, 1)), 0.0);
  // ε_x = 1e-3 |ā|² |b̄|² from rest lengths 2 and 3.
  EXPECT_NEAR(edge_edge_mollifier_threshold(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 1, 1), Vec3(1, 4, 1)), 0.036, 1e-17);
}

TEST(EdgeEdgeMollifier, ScalarShape) {
  constexpr double kEps = 0.25;
  EXPECT_EQ(edge_edge_mollifier(0.0, kEps), 0.0);
  EXPECT_DOUBLE_EQ(edge_edge_mollifier(0.5 * kEps, kEps), 0.75);
  EXPECT_DOUBLE_EQ(edge_edge_mollifier(kEps, kEps), 1.0);
  EXPECT_EQ(edge_edge_mollifier(3 * kEps, kEps), 1.0);
  EXPECT_DOUBLE_EQ(edge_edge_mollifier_derivative(0.0, kEps), 2.0 / kEps);
  EXPECT_EQ(edge_edge_mollifier_derivative(3 * kEps, kEps), 0.0);
  EXPECT_DOUBLE_EQ(edge_edge_mollifier_second_derivative(0.5 * kEps, kEps), -2.0 / (kEps * kEps));
  EXPECT_EQ(edge_edge_mollifier_second_derivative(3 * kEps, kEps), 0.0);
  // Scalar derivatives against finite differences.
  for (double x : {0.0, 0.1 * kEps, 0.5 * kEps, 0.9 * kEps}) {
    const VecX at = VecX::Constant(1, x);
    const auto m = [](const VecX& y) { return edge_edge_mollifier(y[0], kEps); };
    const auto dm = [](const VecX& y) { return edge_edge_mollifier_derivative(y[0], kEps); };
    EXPECT_NEAR(test::fd_gradient(m, at, 1e-6)[0], edge_edge_mollifier_derivative(x, kEps), 1e-8);
    EXPECT_NEAR(test::fd_gradient(dm, at, 1e-6)[0], edge_edge_mollifier_second_derivative(x, kEps), 1e-6);
  }
}

TEST(EdgeEdgeMollifier, IsOneWithZeroDerivativesBeyondThreshold) {
  test::Rng rng(81);
  for (int i = 0; i < 100; ++i) {
    const auto e = edges_at_angle(test::uniform(rng, 0.1, 1.5), 1.0, 0.7, rng);
    const double eps_x = edge_edge_mollifier_threshold(e[0], e[1], e[2], e[3]);
    ASSERT_GT(edge_edge_cross_squarednorm(e[0], e[1], e[2], e[3]), eps_x);
    EXPECT_EQ(edge_edge_mollifier(e[0], e[1], e[2], e[3], eps_x), 1.0);
    EXPECT_EQ(edge_edge_mollifier_gradient(e[0], e[1], e[2], e[3], eps_x).norm(), 0.0);
    EXPECT_EQ(edge_edge_mollifier_hessian(e[0], e[1], e[2], e[3], eps_x).norm(), 0.0);
  }
}

TEST(EdgeEdgeMollifier, IsContinuouslyDifferentiableAtThreshold) {
  // Just below ε_x: m = 1 − O(δ²) and ∇m = m' ∇e_x with m' = 2δ/ε_x → 0; just above: 1 and 0.
  test::Rng rng(82);
  for (int i = 0; i < 20; ++i) {
    const auto e = edges_at_angle(test::uniform(rng, 0.001, 0.03), 1.0, 0.7, rng);
    const double x = edge_edge_cross_squarednorm(e[0], e[1], e[2], e[3]);
    const double grad_x = edge_edge_cross_squarednorm_gradient(e[0], e[1], e[2], e[3]).norm();
    for (double delta : {1e-2, 1e-4, 1e-6}) {
      const double below = x / (1.0 - delta), above = x / (1.0 + delta);  // thresholds putting x at ε(1 ∓ δ)
      EXPECT_NEAR(edge_edge_mollifier(e[0], e[1], e[2], e[3], below), 1.0, 1.01 * delta * delta);
      EXPECT_EQ(edge_edge_mollifier(e[0], e[1], e[2], e[3], above), 1.0);
      EXPECT_NEAR(edge_edge_mollifier_gradient(e[0], e[1], e[2], e[3], below).norm(), 2.0 * delta / below * grad_x,
                  1e-9 * grad_x / below);
      EXPECT_EQ(edge_edge_mollifier_gradient(e[0], e[1], e[2], e[3], above).norm(), 0.0);
    }
  }
}

TEST(EdgeEdgeMollifier, CrossSquaredNormDerivativesMatchFiniteDifferences) {
  test::Rng rng(83);
  test::WorstFd worst("edge_edge_cross_squarednorm");
  for (int i = 0; i < 400; ++i) {
    // Random pairs, and nearly parallel ones where e_x → 0.
    const auto e = i % 2 ? edges_at_angle(std::pow(10.0, test::uniform(rng, -5, -1)), 1.0, 0.7, rng)
                         : std::array<Vec3, 4>{test::random_point(rng), test::random_point(rng),
                                               test::random_point(rng), test::random_point(rng)};
    const auto value = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return edge_edge_cross_squarednorm(a, b, c, d);
    };
    const auto gradient = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return edge_edge_cross_squarednorm_gradient(a, b, c, d);
    };
    const auto hessian = [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return edge_edge_cross_squarednorm_hessian(a, b, c, d);
    };
    test::check_derivatives<4>(value, gradient, hessian, test::stack(e[0], e[1], e[2], e[3]), 1e-6, 1e-6, 1e-6,
                               &worst);
  }
}

TEST(EdgeEdgeMollifier, MollifierDerivativesMatchFiniteDifferences) {
  // Inside the mollified range, x ≤ 0.9 ε_x, so that no finite-difference step crosses ε_x.
  test::Rng rng(84);
  test::WorstFd worst("edge_edge_mollifier");
  for (int i = 0; i < 300; ++i) {
    const auto rest = edges_at_angle(0.5, test::uniform(rng, 0.3, 1.5), test::uniform(rng, 0.3, 1.5), rng);
    const double eps_x = edge_edge_mollifier_threshold(rest[0], rest[1], rest[2], rest[3]);
    // Current edges: the rest lengths, sin² of the angle between 1e-6 and 0.9e-3 (x/ε_x ≤ 0.9).
    const double angle = std::asin(std::sqrt(0.9e-3 * std::pow(10.0, test::uniform(rng, -3, 0))));
    const auto e = edges_at_angle(angle, (rest[1] - rest[0]).norm(), (rest[3] - rest[2]).norm(), rng);
    ASSERT_LT(edge_edge_cross_squarednorm(e[0], e[1], e[2], e[3]), 0.91 * eps_x);
    const auto value = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return edge_edge_mollifier(a, b, c, d, eps_x);
    };
    const auto gradient = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return edge_edge_mollifier_gradient(a, b, c, d, eps_x);
    };
    const auto hessian = [&](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return edge_edge_mollifier_hessian(a, b, c, d, eps_x);
    };
    test::check_derivatives<4>(value, gradient, hessian, test::stack(e[0], e[1], e[2], e[3]), 1e-7, 1e-6, 1e-6,
                               &worst);
  }
}

}  // namespace
}  // namespace affix
