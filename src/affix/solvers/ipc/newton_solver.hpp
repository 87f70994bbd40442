#pragma once
// Projected Newton on the incremental potential (Li 2020 Alg. 1; Lan 2022 §4), island by island.
//
// An island is a set of bodies that may interact during the step; the incremental potential is a sum
// of independent island potentials, so minimising the sum is minimising each. Each iteration:
//   1. g, H with per-stencil PSD projection; one CHOLMOD solve H·Δq = −g for all unconverged islands;
//   2. an island has converged when its step is small: max over its bodies of (‖Δp‖∞ + r‖ΔA‖∞) / h
//      < tolerance · L, which bounds every vertex's velocity change (r: the body's bounding radius,
//      L: scene size); converged islands keep their state;
//   3. per island, α₀ = min(1, CCD max step) so that no iterate passes through the ground, then α is
//      halved until the island's energy does not increase;
//   4. adaptive κ update.
// Islands matter for speed: a global line search would let one body's contact shrink every body's
// step, and a global stopping test would keep iterating bodies that are already done.
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
  double dhat = 1e-3;
  bool adaptive_kappa = true;
  BarrierStiffnessBounds kappa_bounds;
};

struct NewtonResult {
  int iterations = 0;         ///< Newton iterations until the last island converged
  double residual = 0.0;      ///< the largest scaled step norm of step 2 among the islands' last steps (1/s)
  bool converged = false;
  int line_search_evaluations = 0;
  int warnings = 0;           ///< islands whose line search found no decrease
};

using Island = std::vector<int>;  ///< body indices

/// Minimises the incremental potential from q (intersection-free), in place. κ in `constants` may grow.
/// Bodies in no island are held where they are. Throws SimulationError if the linear system cannot be
/// factorised (non-finite or indefinite).
NewtonResult newton_solve(const IncrementalPotential& potential, StepConstants& constants, VecX& q,
                          const std::vector<Island>& islands, const std::vector<double>& body_radii,
                          const NewtonOptions& options, SparseCholesky& linear_solver);

}  // namespace affix
