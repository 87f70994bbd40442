#include "affix/energy/joint_limit_barrier.hpp"

#include <cassert>
#include <cmath>

#include "affix/energy/barrier.hpp"

namespace affix {

namespace {

/// c = σ (d − bound) with d = ‖x₀ − x₁‖: σ = +1 for a lower bound, −1 for an upper one.
double side_sign(BoundSide side) { return side == BoundSide::lower ? 1.0 : -1.0; }

}  // namespace

double limit_function(const Vec6& x, double bound, BoundSide side) {
  return side_sign(side) * ((x.head<3>() - x.tail<3>()).norm() - bound);
}

// With u = x₀ − x₁, d = ‖u‖, n = u/d and M = (I − n nᵀ)/d (the Hessian of d in u):
//   ∇c = σ [n; −n],  ∇²c = σ [M −M; −M M],
//   ∇P = κ b'(c) ∇c,  ∇²P = κ (b''(c) ∇c∇cᵀ + b'(c) ∇²c).
PairDerivatives joint_limit_barrier(const Vec6& x, double bound, BoundSide side, double chat, double kappa) {
  PairDerivatives out;
  const double sigma = side_sign(side);
  const Vec3 u = x.head<3>() - x.tail<3>();
  const double d = u.norm();
  const double c = sigma * (d - bound);
  if (c >= chat) return out;
  assert(c > 0.0 && d > 0.0);
  const Vec3 n = u / d;
  const Mat3 M = (Mat3::Identity() - n * n.transpose()) / d;
  Vec6 grad_c;
  grad_c << sigma * n, -sigma * n;
  Mat6 hess_c;
  hess_c << sigma * M, -sigma * M,  //
      -sigma * M, sigma * M;
  const double b1 = barrier_first_derivative(c, chat), b2 = barrier_second_derivative(c, chat);
  out.value = kappa * barrier(c, chat);
  out.gradient = kappa * b1 * grad_c;
  out.hessian = kappa * (b2 * grad_c * grad_c.transpose() + b1 * hess_c);
  return out;
}

}  // namespace affix
