// The compliant solver's energy line check (solvers/compliant/energy_line_check.hpp) on values computed
// here by hand: a free fall integrated by symplectic Euler in the test keeps E + ½hm g·v on its line (no
// excess, so no false divergence at large h), and a step is a divergence exactly when its excess passes
// kMargin times A = (line + S₀) − U_min + Σ m|g| r_g + kFloor·|E₀|, U_min remembered over the run.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "affix/error.hpp"
#include "affix/solvers/compliant/energy_line_check.hpp"

namespace affix {
namespace {

TEST(CompliantEnergyLineCheck, AFreeFallAtATenthOfASecondStaysOnItsLine) {
  // v₊ = v + hg, z₊ = z + hv₊ (the compliant step without rows); E = ½mv² + mgz, S = ½hm(−g)v.
  const double m = 2.0, g = 9.81, h = 0.1;
  double z = 100.0, v = 3.0;
  const auto energy = [&] { return 0.5 * m * v * v + m * g * z; };
  const auto shadow = [&] { return 0.5 * h * m * (-g) * v; };
  const double e0 = energy();
  EnergyLineCheck check(e0, shadow(), m * g * z, m * g * 0.05);
  const int steps = 1000;
  for (int n = 0; n < steps; ++n) {
    v -= h * g;
    z += h * v;
    check.check(energy(), shadow(), m * g * z, e0);  // nothing does work: the line stays at E₀
  }
  EXPECT_LT(std::abs(check.worst_excess()), 1e-8 * std::abs(e0));
  // E alone falls by ½h²m g² a step (E₊ − E = ½hm g·(v − v₊)): the shadow is what the step keeps, and
  // what the check reads.
  EXPECT_NEAR(energy() - e0, -steps * 0.5 * h * h * m * g * g, 1e-9 * std::abs(e0));
}

TEST(CompliantEnergyLineCheck, AStepIsADivergenceWhenItsExcessPassesTheMarginTimesTheScale) {
  // E₀ = 0, S₀ = 2, U₀ = 0, Σ m|g| r_g = 10; the bodies drop to U = −30: A = (0 + 2) + 30 + 10 = 42.
  EnergyLineCheck check(0.0, 2.0, 0.0, 10.0);
  const double limit = EnergyLineCheck::kMargin * 42.0;
  check.check(-30.0, 2.0, -30.0, 0.0);
  EXPECT_NO_THROW(check.check(limit - 1e-9 + 2.0, 0.0, 0.0, 0.0));  // back up to U = 0: U_min stays −30
  EXPECT_NEAR(check.worst(), (limit - 1e-9) / 42.0, 1e-12);
  try {
    check.check(limit + 1e-6 + 2.0, 0.0, 0.0, 0.0);
    ADD_FAILURE() << "no divergence";
  } catch (const SimulationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("a line of 2 J"), std::string::npos) << what;
    EXPECT_NE(what.find("an excess of 42 J"), std::string::npos) << what;
    EXPECT_NE(what.find("past the limit of 42 J"), std::string::npos) << what;
  }
  // The line rises with the external work (1 J): the same energy is then within the limit (41 J of 43 J).
  EXPECT_NO_THROW(check.check(limit + 1e-6 + 2.0, 0.0, 0.0, 1.0));
}

TEST(CompliantEnergyLineCheck, AnEnergyThatIsNotANumberIsADivergence) {
  EnergyLineCheck check(-5.0, 0.0, -5.0, 1.0);
  EXPECT_THROW(check.check(std::numeric_limits<double>::quiet_NaN(), 0.0, -5.0, -5.0), SimulationError);
}

}  // namespace
}  // namespace affix
