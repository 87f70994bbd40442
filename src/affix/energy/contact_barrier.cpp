#include "affix/energy/contact_barrier.hpp"

#include <cmath>

#include "affix/energy/barrier.hpp"

namespace affix {

StencilDerivatives barrier_of_squared_distance(double s, const Vec12& grad_s, const Mat12& hess_s,
                                               double dhat, double kappa) {
  StencilDerivatives out;
  const double d = std::sqrt(s);
  if (d >= dhat) return out;
  const double b1 = barrier_first_derivative(d, dhat), b2 = barrier_second_derivative(d, dhat);
  const double P_s = kappa * b1 / (2.0 * d);
  const double P_ss = kappa * (b2 - b1 / d) / (4.0 * s);
  out.value = kappa * barrier(d, dhat);
  out.gradient = P_s * grad_s;
  out.hessian = P_ss * grad_s * grad_s.transpose() + P_s * hess_s;
  return out;
}

StencilDerivatives mollified(const StencilDerivatives& P, const StencilDerivatives& m) {
  StencilDerivatives out;
  out.value = m.value * P.value;
  out.gradient = m.value * P.gradient + P.value * m.gradient;
  out.hessian = m.value * P.hessian + P.value * m.hessian + m.gradient * P.gradient.transpose() +
                P.gradient * m.gradient.transpose();
  return out;
}

}  // namespace affix
