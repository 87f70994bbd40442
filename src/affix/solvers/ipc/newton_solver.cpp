#include "affix/solvers/ipc/newton_solver.hpp"

#include <algorithm>
#include <cmath>

#include "affix/error.hpp"

namespace affix {
namespace {

constexpr int kMaxHalvings = 40;

double scaled_step_norm(const VecX& dq, const Island& island, const std::vector<double>& radii,
                        double h, double scene_size) {
  double largest = 0.0;
  for (int i : island) {
    const auto s = body_segment(dq, i);
    largest = std::max(largest, s.head<3>().lpNorm<Eigen::Infinity>() +
                                    radii[i] * s.tail<9>().lpNorm<Eigen::Infinity>());
  }
  return largest / (h * scene_size);
}

double island_sum(const std::vector<double>& per_body, const Island& island) {
  double sum = 0.0;
  for (int i : island) sum += per_body[i];
  return sum;
}

void set_island(IncrementalPotential::BodyMask& mask, const Island& island, char value) {
  for (int i : island) mask[i] = value;
}

/// Backtracking along dq, each island with its own step: α starts at the island's CCD bound and halves
/// until its energy does not increase. Returns the indices (into `islands`) that found no decrease.
std::vector<int> island_line_search(const IncrementalPotential& potential, const StepConstants& c,
                                    VecX& q, const VecX& dq, const std::vector<Island>& islands,
                                    std::vector<int> pending, IncrementalPotential::BodyMask mask,
                                    int& evaluations) {
  const std::vector<double> energy0 = potential.body_energies(q, c, mask);
  const std::vector<double> ccd = potential.max_steps(q, dq, mask);
  std::vector<double> alpha(islands.size(), 1.0);
  for (int k : pending)
    for (int i : islands[k]) alpha[k] = std::min(alpha[k], ccd[i]);

  VecX trial = q;
  for (int halving = 0; halving < kMaxHalvings && !pending.empty(); ++halving) {
    for (int k : pending)
      for (int i : islands[k]) body_segment(trial, i) = body_segment(q, i) + alpha[k] * body_segment(dq, i);
    ++evaluations;
    const std::vector<double> energy = potential.body_energies(trial, c, mask);
    std::vector<int> still_pending;
    for (int k : pending) {
      const double e = island_sum(energy, islands[k]);
      if (std::isfinite(e) && e <= island_sum(energy0, islands[k])) {
        for (int i : islands[k]) body_segment(q, i) = body_segment(trial, i);
        set_island(mask, islands[k], 0);
      } else {
        alpha[k] *= 0.5;
        still_pending.push_back(k);
      }
    }
    pending = std::move(still_pending);
  }
  return pending;
}

}  // namespace

NewtonResult newton_solve(const IncrementalPotential& potential, StepConstants& c, VecX& q,
                          const std::vector<Island>& islands, const std::vector<double>& body_radii,
                          const NewtonOptions& options, SparseCholesky& linear_solver) {
  NewtonResult result;
  IncrementalPotential::BodyMask active(body_radii.size(), 0);
  std::vector<int> unconverged;
  for (int k = 0; k < static_cast<int>(islands.size()); ++k) {
    unconverged.push_back(k);
    set_island(active, islands[k], 1);
  }
  std::vector<double> island_residual(islands.size(), 0.0);
  VecX gradient;
  BlockHessian H;
  double min_distance = potential.contact_summary(q).min_distance;

  while (!unconverged.empty() && result.iterations < options.max_iterations) {
    potential.gradient_and_hessian(q, c, active, gradient, H);
    if (!gradient.allFinite() || !linear_solver.factorize(H))
      throw SimulationError("the Newton system is not finite or not positive definite");
    const VecX dq = linear_solver.solve(-gradient);

    std::vector<int> stepping;
    for (int k : unconverged) {
      island_residual[k] = scaled_step_norm(dq, islands[k], body_radii, options.h, options.scene_size);
      if (!std::isfinite(island_residual[k])) throw SimulationError("the Newton step is not finite");
      if (island_residual[k] < options.tolerance) {
        set_island(active, islands[k], 0);
      } else {
        stepping.push_back(k);
      }
    }
    if (stepping.empty()) {
      unconverged.clear();
      break;
    }
    ++result.iterations;
    const std::vector<int> stalled = island_line_search(potential, c, q, dq, islands, stepping, active,
                                                        result.line_search_evaluations);
    for (int k : stalled) {  // no descent along Δq: stop this island rather than loop to the cap
      ++result.warnings;
      set_island(active, islands[k], 0);
    }
    unconverged.clear();
    for (int k : stepping)
      if (std::find(stalled.begin(), stalled.end(), k) == stalled.end()) unconverged.push_back(k);

    if (options.adaptive_kappa) {
      const double previous = min_distance;
      min_distance = potential.contact_summary(q).min_distance;
      c.kappa = updated_barrier_stiffness(c.kappa, previous, min_distance, options.dhat,
                                          options.kappa_bounds);
    }
  }
  result.converged = unconverged.empty() && result.warnings == 0;
  for (double r : island_residual) result.residual = std::max(result.residual, r);
  return result;
}

}  // namespace affix
