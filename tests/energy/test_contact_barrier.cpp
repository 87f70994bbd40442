#include <gtest/gtest.h>

#include "affix/energy/contact_barrier.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

constexpr double kDhat = 0.1, kKappa = 7.0;

// A smooth stand-in for a squared distance: s(x) = ‖x_head − x_tail‖² over two stacked 6-vectors,
// so the chain rule can be checked without the distance module.
double squared(const VecX& x) { return (x.head<6>() - x.tail<6>()).squaredNorm(); }
Vec12 squared_gradient(const VecX& x) {
  Vec12 g;
  g << 2 * (x.head<6>() - x.tail<6>()), -2 * (x.head<6>() - x.tail<6>());
  return g;
}
Mat12 squared_hessian() {
  Mat12 H = Mat12::Zero();
  H.topLeftCorner<6, 6>().setIdentity();
  H.bottomRightCorner<6, 6>().setIdentity();
  H.topRightCorner<6, 6>() = -Eigen::Matrix<double, 6, 6>::Identity();
  H.bottomLeftCorner<6, 6>() = -Eigen::Matrix<double, 6, 6>::Identity();
  return 2 * H;
}
StencilDerivatives stencil(const VecX& x) {
  return barrier_of_squared_distance(squared(x), squared_gradient(x), squared_hessian(), kDhat, kKappa);
}

TEST(ContactBarrier, ChainRuleThroughSquaredDistanceMatchesFiniteDifferences) {
  for (double d : {0.003, 0.03, 0.08}) {
    for (int seed = 1; seed <= 5; ++seed) {
      std::srand(seed);
      VecX x = VecX::Random(12);
      const Eigen::Matrix<double, 6, 1> dir = Eigen::Matrix<double, 6, 1>::Random().normalized();
      x.tail<6>() = x.head<6>() - d * dir;
      const StencilDerivatives s = stencil(x);
      ASSERT_GT(s.gradient.norm(), 0.0);
      const double h = 1e-4 * d;
      EXPECT_TRUE(test::near_relative(
          s.gradient, test::fd_gradient([](const VecX& y) { return stencil(y).value; }, x, h), 1e-5));
      EXPECT_TRUE(test::near_relative(
          s.hessian, test::fd_jacobian([](const VecX& y) { return VecX(stencil(y).gradient); }, x, h), 1e-5));
    }
  }
}

TEST(ContactBarrier, MollifiedProductRuleMatchesFiniteDifferences) {
  // m(x) = a smooth positive function standing in for the edge-edge mollifier.
  auto product = [](const VecX& y) {
    StencilDerivatives m;
    m.value = 1.0 + y.squaredNorm();
    m.gradient = 2 * y;
    m.hessian = 2 * Mat12::Identity();
    return mollified(stencil(y), m);
  };
  std::srand(3);
  VecX x = VecX::Random(12);
  x.tail<6>() = x.head<6>() - 0.04 * Eigen::Matrix<double, 6, 1>::Random().normalized();
  const StencilDerivatives s = product(x);
  ASSERT_GT(s.gradient.norm(), 0.0);
  EXPECT_TRUE(test::near_relative(
      s.gradient, test::fd_gradient([&](const VecX& y) { return product(y).value; }, x, 1e-6), 1e-5));
  EXPECT_TRUE(test::near_relative(
      s.hessian, test::fd_jacobian([&](const VecX& y) { return VecX(product(y).gradient); }, x, 1e-6), 1e-5));
}

TEST(ContactBarrier, InactiveBeyondDhat) {
  VecX x = VecX::Zero(12);
  x.head<6>().setConstant(1.0);
  EXPECT_EQ(stencil(x).value, 0.0);
  EXPECT_EQ(stencil(x).gradient.norm(), 0.0);
}

}  // namespace
}  // namespace affix
