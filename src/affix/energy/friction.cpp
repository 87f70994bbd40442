#include "affix/energy/friction.hpp"

namespace affix {

double friction_f0(double y, double eps) {
  if (y >= eps) return y;
  return -y * y * y / (3.0 * eps * eps) + y * y / eps + eps / 3.0;
}

double friction_f1(double y, double eps) {
  if (y >= eps) return 1.0;
  return 2.0 * y / eps - y * y / (eps * eps);
}

FrictionStencil friction_potential(const Vec2& u, double mu_lambda, double eps, FrictionHessian form) {
  FrictionStencil s;
  const double y = u.norm();
  s.value = mu_lambda * friction_f0(y, eps);
  // f₁(y)/y and f₁'(y), both finite at y = 0.
  const double f1_over_y = y >= eps ? 1.0 / y : 2.0 / eps - y / (eps * eps);
  const double f1_prime = y >= eps ? 0.0 : 2.0 / eps - 2.0 * y / (eps * eps);
  s.gradient = mu_lambda * f1_over_y * u;
  if (y > 0.0 && form == FrictionHessian::exact) {
    const Vec2 uhat = u / y;
    const Mat2 along = uhat * uhat.transpose();
    s.hessian = mu_lambda * (f1_prime * along + f1_over_y * (Mat2::Identity() - along));
  } else {
    s.hessian = mu_lambda * f1_over_y * Mat2::Identity();
  }
  return s;
}

FrictionHessian friction_newton_form(const Vec2& u, double eps, SlipHistory& history) {
  const bool kept_direction = history.seen && u.dot(history.last) > 0.0;
  // Slid at the last iterate, and kept at least half that slip: the majorizer's slow regime. A slip
  // that more than halved is converging fast under the majorizer, or coming to rest.
  const bool slid_before = history.seen && history.last.norm() >= eps && u.norm() >= 0.5 * history.last.norm();
  if (history.seen && u.dot(history.last) < 0.0) history.reversed = true;
  history.last = u;
  history.seen = true;
  if (u.norm() < eps) return FrictionHessian::exact;  // D is C² here: Newton's quadratic convergence
  return kept_direction && slid_before && !history.reversed ? FrictionHessian::exact : FrictionHessian::majorizer;
}

}  // namespace affix
