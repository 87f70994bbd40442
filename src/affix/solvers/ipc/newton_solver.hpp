#pragma once
// Projected Newton on the incremental potential (Li 2020 Alg. 1; Lan 2022 §4):
//   1. g, H at q with per-stencil PSD projection; solve H·Δq = −g (CHOLMOD);
//   2. stop when the step is small: max over bodies of (‖Δp‖∞ + r‖ΔA‖∞) / h < tolerance · L, which
//      bounds every vertex's velocity change (r: the body's bounding radius, L: scene size);
//   3. α₀ = min(1, CCD max step) so no iterate can pass through the ground; halve α until the
//      energy does not increase;
//   4. adaptive κ update.
// The iteration cap is reported, never hidden.
#include <vector>

#include "affix/solvers/ipc/barrier_stiffness.hpp"
#include "affix/solvers/ipc/incremental_potential.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"

namespace affix {

struct NewtonOptions {
  double h = 0.01;
  double tolerance = 1e-4;
  int max_iterations = 100;
  double scene_size = 1.0;
  bool adaptive_kappa = true;
  BarrierStiffnessBounds kappa_bounds;
};

struct NewtonResult {
  int iterations = 0;
  double residual = 0.0;      ///< the scaled step norm of step 2, last iteration (1/s)
  bool converged = false;
  int line_search_evaluations = 0;
  int warnings = 0;           ///< line searches that found no decrease
};

/// Minimises the incremental potential from q (intersection-free), in place. κ in `constants` may grow.
/// Throws SimulationError if the linear system cannot be factorised (non-finite or indefinite).
NewtonResult newton_solve(const IncrementalPotential& potential, StepConstants& constants, VecX& q,
                          const std::vector<double>& body_radii, const NewtonOptions& options,
                          SparseCholesky& linear_solver);

}  // namespace affix
