// Added inertia (solvers/compliant/added_inertia.hpp): the inertia that puts h²k/(m + Δm) on Eq. 10's
// bound, checked on the discrete oscillator it is for — symplectic Euler on a spring past the bound blows up,
// with the added inertia carrying its momentum it stays bounded and keeps its discrete energy (no damping);
// and the rotational stiffness against its definition (K̃ itself is checked against finite differences in
// tests/joints). What it keeps of a swing is checked on cables: TimeSteps/CablePendulum.*, CompliantWinch.*.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "affix/solvers/compliant/added_inertia.hpp"

namespace affix {
namespace {

TEST(AddedInertia, PutsTheOscillatorOnTheStabilityBound) {
  const double m = 0.02, k = 500.0, h = 0.1;
  for (double alpha : {1.0, 0.5}) {
    const double dm = added_inertia(m, k, h, alpha);
    EXPECT_NEAR(h * h * k / (m + dm), 4.0 * alpha, 1e-12);
  }
  EXPECT_EQ(added_inertia(1.0, 100.0, 0.1, 1.0), 0.0);  // h²k/m = 1 ≤ 4: nothing added
}

/// Steps m ẍ = −k_force x by symplectic Euler on the inertia m + added (momentum (m + added)v) with Eq. 13's
/// damping b; returns the largest |x| over the last 10 of `steps` (x₀ = 1, v₀ = v0).
double last_amplitude(double m, double k_force, double h, double added, double b, int steps, double v0 = 0.0) {
  double x = 1.0, v = v0, largest = 0.0;
  for (int n = 0; n < steps; ++n) {
    v = ((m + added) * v - h * k_force * x) / (m + added + h * b);  // (m + Δm + hb)v₊ = (m + Δm)v − hkx
    x += h * v;
    if (n >= steps - 10) largest = std::max(largest, std::abs(x));
  }
  return largest;
}

TEST(AddedInertia, SlowsASpringPastTheBoundWithoutDampingIt) {
  const double m = 0.02, k = 5000.0, h = 0.1;  // h²k/m = 2500, far past 4
  EXPECT_GT(last_amplitude(m, k, h, 0.0, 0.0, 20), 1e30);  // plain symplectic Euler blows up
  const double dm = added_inertia(m, k, h, 0.9);          // α < 1: strictly inside the bound
  const double kept = last_amplitude(m, k, h, dm, 0.0, 2000);
  EXPECT_GT(kept, 0.95);  // symplectic Euler conserves its modified energy: the amplitude does not decay
  EXPECT_LT(kept, 1.0 / std::sqrt(1.0 - 0.9) + 1e-9);  // and stays within that energy's ellipse
}

TEST(AddedInertia, RotationalStiffnessIsTheColumnNormOfTheTorqueBlocks) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<PlacedStiffness> K(2);
  K[0].body = {0, 1};
  K[1].body = {1, -1};
  for (PlacedStiffness& k : K)
    for (int r = 0; r < 12; ++r)
      for (int c = 0; c < 12; ++c) k.K(r, c) = u(rng);
  std::vector<Vec3> s;
  rotational_stiffness(K, 2, s);
  for (int c = 0; c < 3; ++c) {
    const double body0 = std::sqrt(K[0].K.block<3, 1>(3, 3 + c).squaredNorm() + K[0].K.block<3, 1>(9, 3 + c).squaredNorm());
    const double body1 = std::sqrt(K[0].K.block<3, 1>(3, 9 + c).squaredNorm() + K[0].K.block<3, 1>(9, 9 + c).squaredNorm() +
                                   K[1].K.block<3, 1>(3, 3 + c).squaredNorm());
    EXPECT_NEAR(s[0][c], body0, 1e-14);
    EXPECT_NEAR(s[1][c], body1, 1e-14);
  }
}

}  // namespace
}  // namespace affix
