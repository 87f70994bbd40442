#include "affix/energy/ground_contact.hpp"

#include "affix/body/affine_body.hpp"
#include "affix/energy/barrier.hpp"
#include "affix/energy/friction.hpp"

namespace affix {
namespace {

Vec12 distance_gradient(const Vec3& x_bar) {
  Vec12 e = Vec12::Zero();
  e[2] = 1.0;
  e.segment<3>(9) = x_bar;
  return e;
}

/// Γ = T J(x̄): rows pick the x and y components of J.
Eigen::Matrix<double, 2, 12> tangent_jacobian(const Vec3& x_bar) {
  return point_jacobian(x_bar).topRows<2>();
}

}  // namespace

double ground_distance(const Vec12& q, const Vec3& x_bar, double ground_height) {
  return q[2] + q.segment<3>(9).dot(x_bar) - ground_height;
}

GroundStencil ground_barrier(const Vec12& q, const Vec3& x_bar, double ground_height, double dhat,
                             double kappa) {
  GroundStencil s;
  const double d = ground_distance(q, x_bar, ground_height);
  if (d >= dhat) return s;
  const Vec12 e = distance_gradient(x_bar);
  s.value = kappa * barrier(d, dhat);
  s.gradient = kappa * barrier_first_derivative(d, dhat) * e;
  s.hessian = kappa * barrier_second_derivative(d, dhat) * e * e.transpose();
  return s;
}

Vec2 ground_slip(const Vec12& q, const Vec3& x_bar, const Vec3& x_start) {
  return (world_point(q, x_bar) - x_start).head<2>();
}

GroundStencil ground_friction(const Vec12& q, const Vec3& x_bar, const Vec3& x_start,
                              double mu_lambda, double eps, FrictionHessian form) {
  const Eigen::Matrix<double, 2, 12> Gamma = tangent_jacobian(x_bar);
  const Vec2 u = ground_slip(q, x_bar, x_start);
  const FrictionStencil f = friction_potential(u, mu_lambda, eps, form);
  GroundStencil s;
  s.value = f.value;
  s.gradient = Gamma.transpose() * f.gradient;
  s.hessian = Gamma.transpose() * f.hessian * Gamma;
  return s;
}

}  // namespace affix
