#include <gtest/gtest.h>

#include <cstdio>

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

// The Newton Hessian's form per iterate (friction.hpp, friction_newton_form): exact in the smoothed
// zone; for a sliding contact the majorizer until its slip has kept its direction and at least half its
// size over two iterates, then exact along the slip; the majorizer for good once the slip has turned back.
TEST(Friction, NewtonFormIsExactWhereTheSlipKeepsItsDirection) {
  const Vec2 along(0.6, 0.8);
  SlipHistory sticking;
  EXPECT_EQ(friction_newton_form(0.5 * kEps * along, kEps, sticking), FrictionHessian::exact) << "smooth zone";
  EXPECT_EQ(friction_newton_form(-0.3 * kEps * along, kEps, sticking), FrictionHessian::exact) << "smooth zone";

  SlipHistory sliding;
  EXPECT_EQ(friction_newton_form(40 * kEps * along, kEps, sliding), FrictionHessian::majorizer) << "first sight";
  EXPECT_EQ(friction_newton_form(30 * kEps * along, kEps, sliding), FrictionHessian::exact) << "kept direction";
  EXPECT_EQ(friction_newton_form(20 * kEps * Vec2(0.8, 0.6), kEps, sliding), FrictionHessian::exact);
  // Overshot through u = 0: coming to rest, where the exact Hessian would overshoot again.
  EXPECT_EQ(friction_newton_form(-5 * kEps * along, kEps, sliding), FrictionHessian::majorizer);
  EXPECT_EQ(friction_newton_form(-4 * kEps * along, kEps, sliding), FrictionHessian::majorizer);
  EXPECT_EQ(friction_newton_form(-3 * kEps * along, kEps, sliding), FrictionHessian::majorizer);
  EXPECT_EQ(friction_newton_form(-0.5 * kEps * along, kEps, sliding), FrictionHessian::exact) << "smooth zone";

  SlipHistory stopping;  // more than halved: fast under the majorizer, or coming to rest
  EXPECT_EQ(friction_newton_form(40 * kEps * along, kEps, stopping), FrictionHessian::majorizer);
  EXPECT_EQ(friction_newton_form(15 * kEps * along, kEps, stopping), FrictionHessian::majorizer);
  EXPECT_EQ(friction_newton_form(10 * kEps * along, kEps, stopping), FrictionHessian::exact);

  SlipHistory starting;  // from sticking into sliding: its direction is new
  EXPECT_EQ(friction_newton_form(0.5 * kEps * along, kEps, starting), FrictionHessian::exact);
  EXPECT_EQ(friction_newton_form(5 * kEps * along, kEps, starting), FrictionHessian::majorizer);
  EXPECT_EQ(friction_newton_form(6 * kEps * along, kEps, starting), FrictionHessian::exact);
}

/// Newton with the rule above on D(u) + ½m‖u − u*‖² (one contact against the inertia m behind it),
/// from u* (the predicted slip, as the rigid predictor starts): the number of iterations until the
/// step is below 1e-9·ε, and the slip reached.
int newton_on_one_contact(double m, const Vec2& u_star, bool rule, Vec2& u) {
  SlipHistory history;
  u = u_star;
  for (int it = 1; it <= 200; ++it) {
    const FrictionHessian form = rule ? friction_newton_form(u, kEps, history) : FrictionHessian::majorizer;
    const FrictionStencil s = friction_potential(u, kMuLambda, kEps, form);
    const Vec2 g = s.gradient + m * (u - u_star);
    const Vec2 step = -(s.hessian + m * Mat2::Identity()).ldlt().solve(g);
    // Backtracking on the energy, as the solver's line search does.
    const auto E = [&](const Vec2& v) { return friction_potential(v, kMuLambda, kEps).value + 0.5 * m * (v - u_star).squaredNorm(); };
    double alpha = 1.0;
    while (E(u + alpha * step) > E(u) && alpha > 1e-12) alpha *= 0.5;
    u += alpha * step;
    if (step.norm() < 1e-9 * kEps) return it;
  }
  return 200;
}

TEST(Friction, NewtonFormReachesTheCoulombSlipInAFewIterations) {
  // Sliding: ‖m u*‖ > μλ, the minimiser slides at u* − μλ/m·û* (Coulomb). The majorizer alone gets
  // there linearly at the rate (μλ/y)/(m + μλ/y): 5/6 here, the Coulomb slip y = 50ε against μλ/m = 250ε.
  const double m = kMuLambda / (250 * kEps);
  const Vec2 dir(0.6, 0.8);
  const Vec2 u_star = (kMuLambda / m + 50 * kEps) * dir;
  Vec2 with_rule, majorizer_only;
  const int fast = newton_on_one_contact(m, u_star, true, with_rule);
  const int slow = newton_on_one_contact(m, u_star, false, majorizer_only);
  const Vec2 coulomb = u_star - kMuLambda / m * dir;
  EXPECT_LT((with_rule - coulomb).norm(), 1e-9 * kEps);
  EXPECT_LT((majorizer_only - coulomb).norm(), 1e-4 * kEps) << "the same minimiser, reached slowly";
  EXPECT_LE(fast, 4);
  EXPECT_GE(slow, 4 * fast) << "the majorizer alone: " << slow << " iterations";
  std::printf("sliding contact: %d Newton iterations with the rule, %d with the majorizer alone\n", fast, slow);

  // Sticking: ‖m u*‖ < μλ, the minimiser is inside the smoothed zone; the rule gets there without
  // the exact Hessian's overshoot loop.
  const Vec2 u_stick = 0.5 * kMuLambda / m * dir;
  Vec2 stuck;
  const int stick = newton_on_one_contact(m, u_stick, true, stuck);
  EXPECT_LT(stuck.norm(), kEps);
  EXPECT_LT(stick, 200);
  std::printf("sticking contact: %d Newton iterations with the rule\n", stick);
}

}  // namespace
}  // namespace affix
