#include <gtest/gtest.h>

#include "affix/body/affine_body.hpp"
#include "affix/energy/ground_contact.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kDhat = 1e-2, kKappa = 5.0, kHeight = 0.3;
const Vec3 kPoint(0.2, -0.4, -0.5);

/// A state whose vertex kPoint sits at height kHeight + d.
Vec12 state_at_distance(double d, int seed) {
  std::srand(seed);
  Mat3 A = Eigen::AngleAxisd(0.3 * seed, Vec3(1, seed, 2).normalized()).toRotationMatrix();
  A += 0.01 * Mat3::Random();
  Vec3 p = Vec3::Random();
  Vec12 q = affine_state(p, A);
  q[2] += kHeight + d - world_point(q, kPoint).z();
  return q;
}

TEST(GroundContact, DistanceIsVertexHeight) {
  const Vec12 q = state_at_distance(0.004, 1);
  EXPECT_NEAR(ground_distance(q, kPoint, kHeight), 0.004, 1e-14);
}

TEST(GroundContact, BarrierDerivativesMatchFiniteDifferences) {
  for (double d : {1e-4, 2e-3, 7e-3}) {
    for (int seed = 1; seed <= 5; ++seed) {
      const Vec12 q = state_at_distance(d, seed);
      auto value = [](const VecX& x) { return ground_barrier(x, kPoint, kHeight, kDhat, kKappa).value; };
      auto gradient = [](const VecX& x) {
        return VecX(ground_barrier(x, kPoint, kHeight, kDhat, kKappa).gradient);
      };
      const GroundStencil s = ground_barrier(q, kPoint, kHeight, kDhat, kKappa);
      ASSERT_GT(s.gradient.norm(), 0.0);
      const double h = 1e-3 * d;
      EXPECT_TRUE(test::near_relative(s.gradient, test::fd_gradient(value, q, h), 1e-5));
      EXPECT_TRUE(test::near_relative(s.hessian, test::fd_jacobian(gradient, q, h), 1e-5));
    }
  }
}

TEST(GroundContact, BarrierInactiveBeyondDhat) {
  const GroundStencil s = ground_barrier(state_at_distance(2 * kDhat, 1), kPoint, kHeight, kDhat, kKappa);
  EXPECT_EQ(s.value, 0.0);
  EXPECT_EQ(s.gradient.norm(), 0.0);
}

TEST(GroundContact, FrictionDerivativesMatchFiniteDifferences) {
  constexpr double kEps = 1e-4, kMuLambda = 2.0;
  for (double slide : {0.2 * kEps, 0.7 * kEps, 5 * kEps}) {
    for (int seed = 1; seed <= 5; ++seed) {
      const Vec12 q0 = state_at_distance(1e-3, seed);
      const Vec3 x_start = world_point(q0, kPoint);
      Vec12 q = q0;
      q.head<2>() += slide * Vec2(std::cos(seed), std::sin(seed));  // slide the body in the plane
      auto value = [&](const VecX& x) { return ground_friction(x, kPoint, x_start, kMuLambda, kEps).value; };
      auto gradient = [&](const VecX& x) {
        return VecX(ground_friction(x, kPoint, x_start, kMuLambda, kEps).gradient);
      };
      const GroundStencil s = ground_friction(q, kPoint, x_start, kMuLambda, kEps);
      ASSERT_GT(s.gradient.norm(), 0.0);
      const double h = 1e-3 * slide;
      EXPECT_TRUE(test::near_relative(s.gradient, test::fd_gradient(value, q, h), 1e-5));
      EXPECT_TRUE(test::near_relative(s.hessian * kEps, test::fd_jacobian(gradient, q, h) * kEps, 1e-4));
    }
  }
}

}  // namespace
}  // namespace affix
