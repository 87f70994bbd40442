#pragma once
// The few shared H₀ = M + h²K₀ of the mabd dual-solver tests (test_mabd_dual_solvers.cpp,
// test_mabd_ball_brackets.cpp): M a random mass-like SPD matrix, K₀ a stiff material's rest Hessian,
// each factor a different Young's modulus so that bodies sharing one are told apart from the others.
#include <memory>
#include <vector>

#include "affix/solvers/mabd/corotated_body.hpp"

namespace affix::test {

/// `random12()` gives a random 12×12 matrix (the caller's generator, so its stream is the caller's).
template <class Random12>
std::vector<std::unique_ptr<CorotatedFactor>> random_corotated_factors(Random12&& random12, double h, int count = 3) {
  std::vector<std::unique_ptr<CorotatedFactor>> factors;
  for (int i = 0; i < count; ++i) {
    const Mat12 B = random12();
    const Mat12 mass = B * B.transpose() / 12.0 + Mat12::Identity();
    factors.push_back(
        std::make_unique<CorotatedFactor>(mass, rest_stiffness(1e-3, Lame::from_young(1e8 * (i + 1), 0.3)), h));
  }
  return factors;
}

}  // namespace affix::test
