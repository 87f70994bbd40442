// Adaptive barrier stiffness (barrier_stiffness.hpp; Li 2020 IPC §4.3 and its supplement, restated for
// affix's absolute d̂ and physical κ): the bounds κ_min = 1e11·m̄ / (βh²·b''(d₀)), d₀ = 1e-5·d̂,
// κ_max = 100·κ_min, with b'' written out here from b(d) = −(d − d̂)² ln(d/d̂) (Lan 2022 Eq. 11); the
// initial κ balancing the barrier against the rest of the potential, κ = clamp(−∇B·∇E/‖∇B‖²) (closed
// form on small vectors); and the rule newton_solve applies after every iteration
// (newton_solver.cpp: updated_barrier_stiffness): κ doubles, up to κ_max, while the closest distance
// keeps shrinking below d_ε = 1e-6·d̂.
#include <gtest/gtest.h>

#include <cmath>

#include "affix/solvers/ipc/barrier_stiffness.hpp"

namespace affix {
namespace {

/// b''(d) of the clamped log barrier, differentiated by hand:
/// b' = −2(d − d̂) ln(d/d̂) − (d − d̂)²/d,  b'' = −2 ln(d/d̂) − 4(d − d̂)/d + (d − d̂)²/d².
double barrier_curvature(double d, double dhat) {
  const double r = d - dhat;
  return -2.0 * std::log(d / dhat) - 4.0 * r / d + r * r / (d * d);
}

TEST(BarrierStiffness, BoundsFollowTheHessianRuleAtOneHundredThousandthOfDhat) {
  for (const double dhat : {1e-4, 1e-3, 2e-2}) {
    for (const double mass : {0.1, 8.0, 1500.0}) {
      for (const double beta_h2 : {1e-4, 4.0 / 9.0 * 1e-6}) {
        const BarrierStiffnessBounds b = barrier_stiffness_bounds(mass, beta_h2, dhat);
        const double expected = 1e11 * mass / (beta_h2 * barrier_curvature(1e-5 * dhat, dhat));
        EXPECT_NEAR(b.min, expected, 1e-12 * expected);
        EXPECT_NEAR(b.max, 100.0 * expected, 1e-12 * 100.0 * expected);
        // b''(d₀) ≈ (d̂/d₀)² = 1e10, so κ_min ≈ 10·m̄/(βh²) (the header's estimate), within 0.1 %.
        EXPECT_NEAR(b.min, 10.0 * mass / beta_h2, 1e-3 * 10.0 * mass / beta_h2);
      }
    }
  }
}

TEST(BarrierStiffness, InitialKappaBalancesTheBarrierGradientAgainstTheRest) {
  const BarrierStiffnessBounds bounds{1.0, 100.0};
  VecX barrier(3), rest(3);
  // −∇B·∇E/‖∇B‖² = −(1·(−6) + 2·(−8) + 0·5)/(1 + 4) = 22/5.
  barrier << 1.0, 2.0, 0.0;
  rest << -6.0, -8.0, 5.0;
  EXPECT_DOUBLE_EQ(initial_barrier_stiffness(barrier, rest, bounds), 22.0 / 5.0);
  // The κ that minimises ‖κ∇B + ∇E‖: the residual is orthogonal to ∇B there.
  const double kappa = initial_barrier_stiffness(barrier, rest, bounds);
  EXPECT_NEAR((kappa * barrier + rest).dot(barrier), 0.0, 1e-12);
}

TEST(BarrierStiffness, InitialKappaIsClampedToTheBoundsAndIsTheMinimumWhenNothingIsNear) {
  const BarrierStiffnessBounds bounds{10.0, 1000.0};
  VecX barrier(2), rest(2);
  barrier << 1.0, 0.0;
  rest << -1.0, 3.0;  // balance κ = 1 < κ_min
  EXPECT_DOUBLE_EQ(initial_barrier_stiffness(barrier, rest, bounds), 10.0);
  rest << -1e5, 3.0;  // balance κ = 1e5 > κ_max
  EXPECT_DOUBLE_EQ(initial_barrier_stiffness(barrier, rest, bounds), 1000.0);
  rest << 4.0, 0.0;  // the rest pushes apart already: negative balance, κ_min
  EXPECT_DOUBLE_EQ(initial_barrier_stiffness(barrier, rest, bounds), 10.0);
  rest << -500.0, 7.0;  // inside the bounds
  EXPECT_DOUBLE_EQ(initial_barrier_stiffness(barrier, rest, bounds), 500.0);
  // No contact within d̂: ∇B = 0.
  EXPECT_DOUBLE_EQ(initial_barrier_stiffness(VecX::Zero(2), rest, bounds), 10.0);
}

TEST(BarrierStiffness, KappaDoublesWhileTheClosestDistanceKeepsShrinkingBelowDEpsilon) {
  const double dhat = 1e-3, d_eps = 1e-6 * dhat;
  const BarrierStiffnessBounds bounds{1e3, 1e5};
  // Both distances below d_ε and shrinking: doubled.
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 0.8 * d_eps, 0.5 * d_eps, dhat, bounds), 4e3);
  // Doubling stops at κ_max.
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(7e4, 0.8 * d_eps, 0.5 * d_eps, dhat, bounds), 1e5);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(1e5, 0.8 * d_eps, 0.5 * d_eps, dhat, bounds), 1e5);
  // Unchanged: growing or equal distance, either distance at or above d_ε, nothing near (inf).
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 0.5 * d_eps, 0.8 * d_eps, dhat, bounds), 2e3);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 0.5 * d_eps, 0.5 * d_eps, dhat, bounds), 2e3);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 2.0 * d_eps, 0.5 * d_eps, dhat, bounds), 2e3);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, d_eps, 0.5 * d_eps, dhat, bounds), 2e3);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, INFINITY, INFINITY, dhat, bounds), 2e3);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 0.5 * dhat, 0.1 * dhat, dhat, bounds), 2e3);
  // d_ε scales with d̂.
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 0.8e-6, 0.5e-6, 1.0, bounds), 4e3);
  EXPECT_DOUBLE_EQ(updated_barrier_stiffness(2e3, 0.8e-6, 0.5e-6, 0.1, bounds), 2e3);

  // Repeated shrinking doubles every time: 1e3 · 2⁴ after four iterations.
  double kappa = 1e3, previous = 0.9 * d_eps;
  for (int k = 0; k < 4; ++k) {
    const double d = 0.5 * previous;
    kappa = updated_barrier_stiffness(kappa, previous, d, dhat, bounds);
    previous = d;
  }
  EXPECT_DOUBLE_EQ(kappa, 1.6e4);
}

}  // namespace
}  // namespace affix
