#include "affix/solvers/ipc/barrier_stiffness.hpp"

#include <algorithm>

#include "affix/energy/barrier.hpp"

namespace affix {

BarrierStiffnessBounds barrier_stiffness_bounds(double average_mass, double beta_h2, double dhat) {
  const double d0 = 1e-5 * dhat;
  const double kappa_min = 1e11 * average_mass / (beta_h2 * barrier_second_derivative(d0, dhat));
  return {kappa_min, 100.0 * kappa_min};
}

double initial_barrier_stiffness(const VecX& barrier_gradient, const VecX& rest_gradient,
                                 const BarrierStiffnessBounds& bounds) {
  const double norm2 = barrier_gradient.squaredNorm();
  if (norm2 == 0.0) return bounds.min;
  return std::clamp(-barrier_gradient.dot(rest_gradient) / norm2, bounds.min, bounds.max);
}

double updated_barrier_stiffness(double kappa, double previous_min_distance, double min_distance,
                                 double dhat, const BarrierStiffnessBounds& bounds) {
  const double d_eps = 1e-6 * dhat;
  if (previous_min_distance < d_eps && min_distance < d_eps && min_distance < previous_min_distance)
    return std::min(bounds.max, 2.0 * kappa);
  return kappa;
}

}  // namespace affix
