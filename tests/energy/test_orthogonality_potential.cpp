#include <gtest/gtest.h>

#include "affix/energy/orthogonality_potential.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kStiffness = 3.0, kVolume = 0.7;

Vec12 random_state(int seed) {
  std::srand(seed);
  Vec12 q = Vec12::Random();
  q.segment<3>(3) += Vec3::UnitX();  // near, but not at, a rotation
  q.segment<3>(6) += Vec3::UnitY();
  q.segment<3>(9) += Vec3::UnitZ();
  return q;
}

TEST(OrthogonalityPotential, ZeroOnRotations) {
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  Vec12 q;
  q << 1, 2, 3, R.row(0).transpose(), R.row(1).transpose(), R.row(2).transpose();
  EXPECT_NEAR(orthogonality_potential(q, kStiffness, kVolume), 0.0, 1e-24);
  EXPECT_LT(orthogonality_potential_gradient(q, kStiffness, kVolume).norm(), 1e-12);
}

TEST(OrthogonalityPotential, ScalesWithStretchSquaredSquared) {
  // A = s·I: ‖AAᵀ − I‖² = 3 (s² − 1)².
  Vec12 q = Vec12::Zero();
  q[3] = q[7] = q[11] = 1.1;
  EXPECT_NEAR(orthogonality_potential(q, kStiffness, kVolume),
              kStiffness * kVolume * 3 * std::pow(1.21 - 1, 2), 1e-12);
}

TEST(OrthogonalityPotential, GradientAndHessianMatchFiniteDifferences) {
  for (int seed = 1; seed <= 20; ++seed) {
    const Vec12 q = random_state(seed);
    const VecX g = orthogonality_potential_gradient(q, kStiffness, kVolume);
    ASSERT_GT(g.norm(), 1e-6);
    const VecX g_fd = test::fd_gradient(
        [](const VecX& x) { return orthogonality_potential(x, kStiffness, kVolume); }, q);
    EXPECT_TRUE(test::near_relative(g, g_fd, 1e-6)) << "seed " << seed;
    const MatX H = orthogonality_potential_hessian(q, kStiffness, kVolume);
    const MatX H_fd = test::fd_jacobian(
        [](const VecX& x) { return VecX(orthogonality_potential_gradient(x, kStiffness, kVolume)); }, q);
    EXPECT_TRUE(test::near_relative(H, H_fd, 1e-6)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace affix
