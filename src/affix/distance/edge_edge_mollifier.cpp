#include "affix/distance/edge_edge_mollifier.hpp"

#include <cassert>

#include "affix/distance/derivative_helpers.hpp"

namespace affix {
namespace {

using namespace distance_detail;

/// (a, b) = S (ea0, ea1, eb0, eb1).
Eigen::Matrix<double, 6, 12> edge_vectors_selection() {
  Eigen::Matrix<double, 6, 12> S;
  S << combination<4>({-1.0, 1.0, 0.0, 0.0}), combination<4>({0.0, 0.0, -1.0, 1.0});
  return S;
}

}  // namespace

double edge_edge_cross_squarednorm(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return (ea1 - ea0).cross(eb1 - eb0).squaredNorm();
}

Vec12 edge_edge_cross_squarednorm_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return edge_vectors_selection().transpose() * cross_squarednorm_gradient(ea1 - ea0, eb1 - eb0);
}

Mat12 edge_edge_cross_squarednorm_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  const Eigen::Matrix<double, 6, 12> S = edge_vectors_selection();
  return S.transpose() * cross_squarednorm_hessian(ea1 - ea0, eb1 - eb0) * S;
}

double edge_edge_mollifier_threshold(const Vec3& ea0_rest, const Vec3& ea1_rest, const Vec3& eb0_rest,
                                     const Vec3& eb1_rest) {
  return 1e-3 * (ea0_rest - ea1_rest).squaredNorm() * (eb0_rest - eb1_rest).squaredNorm();
}

double edge_edge_mollifier(double x, double eps_x) {
  assert(eps_x > 0.0 && "edge_edge_mollifier: non-positive threshold");
  if (x >= eps_x) return 1.0;
  const double u = x / eps_x;
  return (2.0 - u) * u;
}

double edge_edge_mollifier_derivative(double x, double eps_x) {
  assert(eps_x > 0.0 && "edge_edge_mollifier_derivative: non-positive threshold");
  if (x >= eps_x) return 0.0;
  return 2.0 * (1.0 - x / eps_x) / eps_x;
}

double edge_edge_mollifier_second_derivative(double x, double eps_x) {
  assert(eps_x > 0.0 && "edge_edge_mollifier_second_derivative: non-positive threshold");
  if (x >= eps_x) return 0.0;
  return -2.0 / (eps_x * eps_x);
}

double edge_edge_mollifier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, double eps_x) {
  return edge_edge_mollifier(edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1), eps_x);
}

Vec12 edge_edge_mollifier_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                   double eps_x) {
  const double x = edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1);
  if (x >= eps_x) return Vec12::Zero();
  return edge_edge_mollifier_derivative(x, eps_x) * edge_edge_cross_squarednorm_gradient(ea0, ea1, eb0, eb1);
}

Mat12 edge_edge_mollifier_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                  double eps_x) {
  const double x = edge_edge_cross_squarednorm(ea0, ea1, eb0, eb1);
  if (x >= eps_x) return Mat12::Zero();
  const Vec12 g = edge_edge_cross_squarednorm_gradient(ea0, ea1, eb0, eb1);
  return edge_edge_mollifier_second_derivative(x, eps_x) * g * g.transpose() +
         edge_edge_mollifier_derivative(x, eps_x) * edge_edge_cross_squarednorm_hessian(ea0, ea1, eb0, eb1);
}

}  // namespace affix
