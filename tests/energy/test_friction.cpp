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

}  // namespace
}  // namespace affix
