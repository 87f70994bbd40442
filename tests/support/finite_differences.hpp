#pragma once
// The one finite-difference helper every derivative test uses (STYLE.md practice 2): the gradient
// against central differences of the value, the Hessian against central differences of the analytic
// gradient. Tests assert the gradient is not zero before comparing, so a vanishing term cannot pass.
#include <gtest/gtest.h>

#include <functional>

#include "affix/math/types.hpp"

namespace affix::test {

inline VecX fd_gradient(const std::function<double(const VecX&)>& f, const VecX& x, double h = 1e-6) {
  VecX g(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    VecX xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    g[i] = (f(xp) - f(xm)) / (2.0 * h);
  }
  return g;
}

inline MatX fd_jacobian(const std::function<VecX(const VecX&)>& g, const VecX& x, double h = 1e-6) {
  const VecX g0 = g(x);
  MatX J(g0.size(), x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    VecX xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    J.col(i) = (g(xp) - g(xm)) / (2.0 * h);
  }
  return J;
}

/// ‖a − b‖∞ ≤ rel · max(1, ‖b‖∞): relative to the size of the reference.
inline ::testing::AssertionResult near_relative(const MatX& a, const MatX& b, double rel) {
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  const double err = (a - b).cwiseAbs().maxCoeff();
  if (err <= rel * scale) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "max abs difference " << err << " exceeds " << rel * scale
                                       << "\nanalytic:\n" << a << "\nfinite differences:\n" << b;
}

}  // namespace affix::test
