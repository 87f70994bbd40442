#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "affix/energy/friction.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kEps = 1e-5, kMuLambda = 3.0;

TEST(Friction, MollifierIsContinuousAndReachesCoulomb) {
  EXPECT_DOUBLE_EQ(friction_f1(0.0, kEps), 0.0);
  EXPECT_NEAR(friction_f1(kEps * (1 - 1e-9), kEps), 1.0, 1e-8);
  EXPECT_DOUBLE_EQ(friction_f1(10 * kEps, kEps), 1.0);
  EXPECT_NEAR(friction_f0(kEps * (1 - 1e-9), kEps), kEps, 1e-12);
  // f₀' = f₁
  for (double y : {0.1 * kEps, 0.5 * kEps, 0.9 * kEps, 2 * kEps}) {
    const double h = 1e-4 * kEps;
    EXPECT_NEAR((friction_f0(y + h, kEps) - friction_f0(y - h, kEps)) / (2 * h), friction_f1(y, kEps), 1e-8);
  }
}

TEST(Friction, SlidingForceHasCoulombMagnitude) {
  const FrictionStencil s = friction_potential(Vec2(3 * kEps, 4 * kEps), kMuLambda, kEps);
  EXPECT_NEAR(s.gradient.norm(), kMuLambda, 1e-12);
}

TEST(Friction, DerivativesMatchFiniteDifferencesInBothRegimes) {
  for (double scale : {0.05, 0.3, 0.8, 1.5, 20.0}) {
    for (int seed = 1; seed <= 5; ++seed) {
      std::srand(seed);
      const Vec2 u = scale * kEps * Vec2::Random().normalized();
      auto value = [](const VecX& x) { return friction_potential(x, kMuLambda, kEps).value; };
      auto gradient = [](const VecX& x) { return VecX(friction_potential(x, kMuLambda, kEps).gradient); };
      const FrictionStencil s = friction_potential(u, kMuLambda, kEps);
      ASSERT_GT(s.gradient.norm(), 0.0);
      const double h = 1e-4 * scale * kEps;
      EXPECT_TRUE(test::near_relative(s.gradient, test::fd_gradient(value, u, h), 1e-6));
      const MatX H_fd = test::fd_jacobian(gradient, u, h);
      EXPECT_TRUE(test::near_relative(s.hessian / kMuLambda * kEps, H_fd / kMuLambda * kEps, 1e-5))
          << "scale " << scale;
      EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat2>(s.hessian).eigenvalues().minCoeff(), -1e-9);
    }
  }
}

TEST(Friction, HessianAtRestIsFinite) {
  const FrictionStencil s = friction_potential(Vec2::Zero(), kMuLambda, kEps);
  EXPECT_NEAR(s.hessian(0, 0), kMuLambda * 2 / kEps, 1e-6);
  EXPECT_EQ(s.gradient, Vec2::Zero());
}

// The Newton solve's friction Hessian (friction.hpp) bounds D from above along every line through u₀:
// D(u) ≤ D(u₀) + ∇D(u₀)·(u − u₀) + ½ (u − u₀)ᵀ H (u − u₀), sampled in both regimes and across them
// (through u = 0 too), dominates the exact Hessian, and equals it at rest.
TEST(Friction, NewtonHessianMajorizesTheEnergy) {
  const auto D = [](const Vec2& u) { return friction_potential(u, kMuLambda, kEps).value; };
  std::srand(7);
  int tight = 0;  // samples where the bound holds with little room (it is a tangent, not a loose cap)
  for (double scale : {0.05, 0.5, 0.99, 1.01, 3.0, 50.0}) {
    for (int k = 0; k < 50; ++k) {
      const Vec2 u0 = scale * kEps * Vec2::Random().normalized();
      const FrictionStencil m = friction_potential(u0, kMuLambda, kEps, FrictionHessian::majorizer);
      const FrictionStencil e = friction_potential(u0, kMuLambda, kEps);
      EXPECT_EQ(m.value, e.value);
      EXPECT_EQ(m.gradient, e.gradient);
      EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat2>(m.hessian - e.hessian).eigenvalues().minCoeff(),
                -1e-9 * m.hessian.norm());
      for (double reach : {1e-3, 0.3, 1.0, 2.0, 10.0, 100.0}) {
        const Vec2 du = reach * scale * kEps * Vec2::Random();
        const double model = m.value + m.gradient.dot(du) + 0.5 * du.dot(m.hessian * du);
        EXPECT_LE(D(u0 + du), model + 1e-12 * kMuLambda * kEps) << "scale " << scale << " reach " << reach;
        if (model - D(u0 + du) < 1e-3 * (std::abs(m.gradient.dot(du)) + 1e-300)) ++tight;
      }
      // Back through the origin: the overshoot the exact Hessian allows.
      const Vec2 back = -2.0 * u0;
      EXPECT_LE(D(u0 + back), m.value + m.gradient.dot(back) + 0.5 * back.dot(m.hessian * back) +
                                  1e-12 * kMuLambda * kEps);
    }
  }
  EXPECT_GT(tight, 0);
  const FrictionStencil at_rest = friction_potential(Vec2::Zero(), kMuLambda, kEps, FrictionHessian::majorizer);
  EXPECT_EQ(at_rest.hessian, friction_potential(Vec2::Zero(), kMuLambda, kEps).hessian);
}

}  // namespace
}  // namespace affix
