#include "affix/solvers/ipc/newton_solver.hpp"

#include <algorithm>
#include <cmath>

#include "affix/error.hpp"

namespace affix {
namespace {

constexpr int kMaxHalvings = 40;
// A joint-row restoration move larger than this fraction of the scene size is taken without the
// energy test; below it the rows are exact to round-off and the step is an ordinary Newton step.
constexpr double kRestoringStep = 1e-10;
using BodyMask = IncrementalPotential::BodyMask;

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

void set_island(BodyMask& mask, const Island& island, char value) {
  for (int i : island) mask[i] = value;
}

/// Per island the CCD-safe fraction of dq (needs swept candidates for dq).
std::vector<double> island_max_steps(const IncrementalPotential& potential, const VecX& q, const VecX& dq,
                                     const std::vector<Island>& islands, const BodyMask& mask) {
  const std::vector<double> per_body = potential.max_steps(q, dq, mask);
  std::vector<double> alpha(islands.size(), 1.0);
  for (std::size_t k = 0; k < islands.size(); ++k)
    for (int i : islands[k]) alpha[k] = std::min(alpha[k], per_body[i]);
  return alpha;
}

/// Backtracking along dq, each island with its own step: α starts at the island's CCD bound and halves
/// until its energy does not increase. A `restoring` island (its joint rows are not yet exact, so dq
/// need not descend) takes its CCD bound at once. Returns the islands (indices) that found no decrease.
std::vector<int> island_line_search(const IncrementalPotential& potential, const StepConstants& c,
                                    VecX& q, const VecX& dq, const std::vector<Island>& islands,
                                    std::vector<int> pending, const std::vector<char>& restoring,
                                    int& evaluations) {
  BodyMask mask(q.size() / 12, 0);
  for (int k : pending) set_island(mask, islands[k], 1);
  const std::vector<double> energy0 = potential.body_energies(q, c, mask);
  std::vector<double> alpha = island_max_steps(potential, q, dq, islands, mask);

  VecX trial = q;
  for (int halving = 0; halving < kMaxHalvings && !pending.empty(); ++halving) {
    for (int k : pending)
      for (int i : islands[k]) body_segment(trial, i) = body_segment(q, i) + alpha[k] * body_segment(dq, i);
    ++evaluations;
    const std::vector<double> energy = potential.body_energies(trial, c, mask);
    std::vector<int> still_pending;
    for (int k : pending) {
      const double e = island_sum(energy, islands[k]);
      if (std::isfinite(e) && (restoring[k] || e <= island_sum(energy0, islands[k]))) {
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

void safe_island_move(IncrementalPotential& potential, const std::vector<AffineBody>& bodies, VecX& q,
                      const VecX& dq) {
  potential.update_contact_candidates(q, &dq);
  const std::vector<Island> islands = connected_islands(bodies, potential.coupled_body_pairs());
  const std::vector<double> alpha =
      island_max_steps(potential, q, dq, islands, BodyMask(bodies.size(), 1));
  for (std::size_t k = 0; k < islands.size(); ++k)
    for (int i : islands[k]) body_segment(q, i) += alpha[k] * body_segment(dq, i);
}

NewtonResult newton_solve(IncrementalPotential& potential, StepConstants& c, VecX& q,
                          const std::vector<AffineBody>& bodies, const std::vector<double>& body_radii,
                          const NewtonOptions& options, SparseCholesky& linear_solver,
                          const JointSpace& joints) {
  NewtonResult result;
  const int n = static_cast<int>(bodies.size());
  BodyMask unconverged(n, 0);
  for (int i = 0; i < n; ++i) unconverged[i] = !bodies[i].is_dirichlet();
  std::vector<double> last_residual(n, 0.0);  // of each body's island at its last check
  VecX gradient;
  BlockHessian H;
  potential.update_contact_candidates(q, nullptr);
  double min_distance = potential.min_barrier_distance(q);

  while (result.iterations < options.max_iterations &&
         std::find(unconverged.begin(), unconverged.end(), 1) != unconverged.end()) {
    potential.update_contact_candidates(q, nullptr);
    potential.gradient_and_hessian(q, c, unconverged, gradient, H);
    if (!gradient.allFinite()) throw SimulationError("the Newton gradient is not finite");
    VecX dq, delta = VecX::Zero(q.size());
    bool factorized = false;
    if (joints.empty()) {
      factorized = linear_solver.factorize(H);
      if (factorized) dq = linear_solver.solve(-gradient);
    } else {
      delta = joints.restoration(q);
      for (int i = 0; i < n; ++i)
        if (!unconverged[i]) body_segment(delta, i).setZero();
      factorized = joints.solve(H, gradient, delta, linear_solver, dq);
    }
    if (!factorized) throw SimulationError("the Newton system is not finite or not positive definite");

    potential.update_contact_candidates(q, &dq);
    const std::vector<Island> islands = connected_islands(bodies, potential.coupled_body_pairs());
    std::vector<int> stepping;
    std::vector<char> restoring(islands.size(), 0);
    for (int k = 0; k < static_cast<int>(islands.size()); ++k) {
      const Island& island = islands[k];
      const auto moving = std::count_if(island.begin(), island.end(), [&](int i) { return unconverged[i]; });
      if (moving == 0) continue;  // frozen and untouched
      const double residual = scaled_step_norm(dq, island, body_radii, options.h, options.scene_size);
      if (!std::isfinite(residual)) throw SimulationError("the Newton step is not finite");
      for (int i : island) last_residual[i] = residual;
      restoring[k] = scaled_step_norm(delta, island, body_radii, 1.0, options.scene_size) > kRestoringStep;
      const bool rejoined = moving < static_cast<long>(island.size());  // held bodies were reached
      set_island(unconverged, island, 1);
      if (residual < options.tolerance && !rejoined && !restoring[k]) {
        set_island(unconverged, island, 0);
      } else {
        stepping.push_back(k);
      }
    }
    if (stepping.empty()) continue;
    ++result.iterations;
    for (int k : island_line_search(potential, c, q, dq, islands, stepping, restoring,
                                    result.line_search_evaluations)) {
      ++result.warnings;  // no descent along Δq: stop this island rather than loop to the cap
      set_island(unconverged, islands[k], 0);
    }
    if (options.adaptive_kappa) {
      const double previous = min_distance;
      min_distance = potential.min_barrier_distance(q);
      c.kappa = updated_barrier_stiffness(c.kappa, previous, min_distance, options.dhat, options.kappa_bounds);
    }
  }
  result.residual = *std::max_element(last_residual.begin(), last_residual.end());
  result.converged = std::find(unconverged.begin(), unconverged.end(), 1) == unconverged.end() &&
                     result.warnings == 0;
  potential.update_contact_candidates(q, nullptr);
  return result;
}

}  // namespace affix
