#include <gtest/gtest.h>

#include "affix/body/affine_body.hpp"
#include "affix/energy/generalized_force.hpp"
#include "affix/energy/inertia.hpp"
#include "affix/math/rotation.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

/// A body whose mass properties are those of point masses at known rest points, so that every
/// generalized force can be checked against the sum over the points.
struct PointCloudBody {
  std::vector<Vec3> points{{0.3, -0.2, 0.1}, {-0.4, 0.5, 0.2}, {0.1, 0.1, -0.6}, {0.2, -0.3, 0.4}};
  std::vector<double> masses{1.0, 2.0, 0.5, 1.5};
  AffineBody body() const {
    AffineBody b;
    for (std::size_t i = 0; i < points.size(); ++i) {
      b.mass += masses[i];
      b.center_of_mass += masses[i] * points[i];
      b.second_moment += masses[i] * points[i] * points[i].transpose();
      b.mass_matrix.mass += masses[i];
      b.mass_matrix.first_moment += masses[i] * points[i];
      b.mass_matrix.second_moment += masses[i] * points[i] * points[i].transpose();
    }
    b.center_of_mass /= b.mass;
    return b;
  }
  /// Σ mᵢ J(x̄ᵢ)ᵀJ(x̄ᵢ): Lan 2022 Eq. 4 summed over the points, without the mass properties.
  Mat12 summed_mass_matrix() const {
    Mat12 M = Mat12::Zero();
    for (std::size_t i = 0; i < points.size(); ++i)
      M += masses[i] * point_jacobian(points[i]).transpose() * point_jacobian(points[i]);
    return M;
  }
};

TEST(AffineMass, IsTheSumOfPointJacobianProductsInFullAndAsAProduct) {
  const PointCloudBody cloud;
  const AffineMass mass = cloud.body().mass_matrix;
  const Mat12 expected = cloud.summed_mass_matrix();
  EXPECT_LT((mass.matrix() - expected).norm(), 1e-14 * expected.norm());
  for (int trial = 0; trial < 5; ++trial) {
    const Vec12 v = Vec12::Random();
    EXPECT_LT((mass * v - expected * v).norm(), 1e-14 * (expected * v).norm());
  }
}

TEST(GeneralizedForce, GravityIsSumOverMaterialPoints) {
  const PointCloudBody cloud;
  const Vec3 g(0.3, -1.0, -9.81);
  Vec12 expected = Vec12::Zero();
  for (std::size_t i = 0; i < cloud.points.size(); ++i)
    expected += point_jacobian(cloud.points[i]).transpose() * (cloud.masses[i] * g);
  EXPECT_LT((gravity_force(cloud.body(), g) - expected).norm(), 1e-12);
}

TEST(GeneralizedForce, TorqueDoesPowerTorqueDotOmega) {
  const Mat3 R = Eigen::AngleAxisd(1.1, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  const Vec3 tau(0.4, -1.3, 2.2), omega(-0.7, 0.2, 0.9);
  const Vec12 qdot = affine_state(Vec3(1, 2, 3), skew(omega) * R);  // rigid motion
  EXPECT_NEAR(torque_force(R, tau).dot(qdot), tau.dot(omega), 1e-12);
}

TEST(GeneralizedForce, PointForceDoesPowerForceDotPointVelocity) {
  const Vec3 x_bar(0.2, 0.5, -0.1), f(1, -2, 3);
  const Vec12 qdot = Vec12::Random();
  EXPECT_NEAR(point_force(x_bar, f).dot(qdot), f.dot(point_jacobian(x_bar) * qdot), 1e-12);
}

TEST(Inertia, KineticEnergyIsSumOverMaterialPoints) {
  const PointCloudBody cloud;
  const Vec12 qdot = Vec12::Random();
  double expected = 0.0;
  for (std::size_t i = 0; i < cloud.points.size(); ++i)
    expected += 0.5 * cloud.masses[i] * (point_jacobian(cloud.points[i]) * qdot).squaredNorm();
  EXPECT_NEAR(kinetic_energy(cloud.body().mass_matrix, qdot), expected, 1e-12);
}

TEST(Inertia, GradientAndHessianMatchFiniteDifferences) {
  const Mat12 M = PointCloudBody().body().mass_matrix.matrix();
  const Vec12 q = Vec12::Random(), q_tilde = Vec12::Random();
  const VecX g = inertia_gradient(M, q, q_tilde);
  ASSERT_GT(g.norm(), 0.0);
  EXPECT_TRUE(test::near_relative(
      g, test::fd_gradient([&](const VecX& x) { return inertia_energy(M, x, q_tilde); }, q), 1e-7));
  EXPECT_TRUE(test::near_relative(
      M, test::fd_jacobian([&](const VecX& x) { return VecX(inertia_gradient(M, x, q_tilde)); }, q), 1e-7));
}

TEST(Gravity, LinearPotentialGradientIsMinusForce) {
  const Vec12 f = gravity_force(PointCloudBody().body(), Vec3(0, 0, -9.81));
  const Vec12 q = Vec12::Random();
  const VecX g_fd = test::fd_gradient([&](const VecX& x) { return linear_potential(f, x); }, q);
  ASSERT_GT(f.norm(), 0.0);
  EXPECT_TRUE(test::near_relative(-f, g_fd, 1e-8));
}

}  // namespace
}  // namespace affix

namespace affix {
namespace {

TEST(PointJacobian, ClosedFormProductsMatchTheMatrices) {
  const Vec3 x_bar(0.3, -1.2, 0.7), x_other(-0.4, 0.9, 2.0), g(1.5, -0.5, 0.25);
  const Mat3 M = Mat3::Random();
  EXPECT_LT((point_jacobian_transpose_times(x_bar, g) - point_jacobian(x_bar).transpose() * g).norm(), 1e-14);
  const Mat12 expected = point_jacobian(x_bar).transpose() * M * point_jacobian(x_other);
  EXPECT_LT((point_jacobian_congruence(x_bar, M, x_other) - expected).norm(), 1e-13);
}

}  // namespace
}  // namespace affix
