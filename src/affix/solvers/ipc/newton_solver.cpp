#include "affix/solvers/ipc/newton_solver.hpp"

#include <cmath>

#include "affix/error.hpp"

namespace affix {
namespace {

double scaled_step_norm(const VecX& dq, const std::vector<double>& radii, double h, double scene_size) {
  double largest = 0.0;
  for (int i = 0; i < static_cast<int>(radii.size()); ++i) {
    const auto s = body_segment(dq, i);
    largest = std::max(largest, s.head<3>().lpNorm<Eigen::Infinity>() +
                                    radii[i] * s.tail<9>().lpNorm<Eigen::Infinity>());
  }
  return largest / (h * scene_size);
}

constexpr int kMaxHalvings = 40;

}  // namespace

NewtonResult newton_solve(const IncrementalPotential& potential, StepConstants& c, VecX& q,
                          const std::vector<double>& body_radii, const NewtonOptions& options,
                          SparseCholesky& linear_solver) {
  NewtonResult result;
  VecX gradient;
  BlockHessian H;
  double min_distance = potential.contact_summary(q).min_distance;
  for (result.iterations = 0; result.iterations < options.max_iterations; ++result.iterations) {
    potential.gradient_and_hessian(q, c, gradient, H);
    if (!gradient.allFinite() || !linear_solver.factorize(H))
      throw SimulationError("the Newton system is not finite or not positive definite");
    const VecX dq = linear_solver.solve(-gradient);
    result.residual = scaled_step_norm(dq, body_radii, options.h, options.scene_size);
    if (!std::isfinite(result.residual)) throw SimulationError("the Newton step is not finite");
    if (result.residual < options.tolerance) {
      result.converged = true;
      break;
    }

    const double energy = potential.energy(q, c);
    double alpha = potential.max_step(q, dq);
    bool decreased = false;
    VecX trial;
    for (int k = 0; k < kMaxHalvings && !decreased; ++k, alpha *= 0.5) {
      trial = q + alpha * dq;
      ++result.line_search_evaluations;
      const double e = potential.energy(trial, c);
      decreased = std::isfinite(e) && e <= energy;
      if (decreased) q = trial;
    }
    if (!decreased) {
      ++result.warnings;  // no descent along Δq: stop here rather than loop at the cap
      ++result.iterations;
      break;
    }

    if (options.adaptive_kappa) {
      const double previous = min_distance;
      min_distance = potential.contact_summary(q).min_distance;
      c.kappa = updated_barrier_stiffness(c.kappa, previous, min_distance, options.scene_size,
                                          options.kappa_bounds);
    }
  }
  return result;
}

}  // namespace affix
