#pragma once
// Lagged, smoothed Coulomb friction of IPC (Li 2020 §5; Lan 2022 Eq. 12), on one contact's tangential
// displacement u ∈ R² over the step:
//   D(u) = μ λ f₀(‖u‖),
// λ the normal force (N) and the tangent basis frozen at the last lag update. With ε = ε_v·h, the
// mollifier f₁ (the fraction of μλ transmitted) and its integral f₀ are
//   f₁(y) = 2y/ε − y²/ε²  (y < ε),  1  (y ≥ ε);      f₀(y) = y³·(−1/(3ε²)) + y²/ε + ε/3  (y < ε),  y.
// Force −∇D = −μλ f₁(y) û: static friction below ε_v, Coulomb sliding above. The Hessian
//   ∇²D = μλ [ f₁'(y) ûûᵀ + f₁(y)/y (I − ûûᵀ) ]
// has eigenvalues f₁' ≥ 0 and f₁/y ≥ 0, so it is PSD; f₁(y)/y → 2/ε as y → 0, evaluated in closed form.
#include "affix/math/types.hpp"

namespace affix {

double friction_f0(double y, double eps);
double friction_f1(double y, double eps);

struct FrictionStencil {
  double value = 0.0;
  Vec2 gradient = Vec2::Zero();
  Mat2 hessian = Mat2::Zero();
};

/// D(u) = mu_lambda · f₀(‖u‖) with its gradient and (PSD) Hessian in u.
FrictionStencil friction_potential(const Vec2& u, double mu_lambda, double eps);

}  // namespace affix
