#pragma once
// Projected Newton on the incremental potential (Li 2020 Alg. 1; Lan 2022 §4), island by island.
//
// Each iteration:
//   1. proximity candidates at q; g and H of the unconverged bodies with per-stencil PSD projection;
//      one CHOLMOD solve H·Δq = −g (converged bodies are held: their rows are identity), or with
//      linear joints its reduced form in the joint space (joint_space.hpp);
//      then the second-order correction c of the orthogonality potential's curved valley, solved with
//      the same matrix (orthogonality_correction.hpp); the iteration's step is Δq + c wherever that
//      still descends, else Δq; where CCD cuts Δq + c to α₀ < 1, Δq + α₀c (c is quadratic in the step);
//   2. candidates swept along the step; islands = components of the dynamic bodies they link
//      (islands.hpp). Bodies in different islands cannot come within d̂ of each other anywhere along
//      this iteration's steps, so the incremental potential is a sum of island potentials and each
//      island can be searched on its own;
//   3. an island has converged when its step is small: max over its bodies of (‖Δp‖∞ + r‖ΔA‖∞) / h
//      < tolerance · L, a bound on every vertex's velocity change (r: bounding radius, L: the
//      island's own size, so far-away bodies change nothing). The first iteration always steps: its
//      direction carries the loads of the step, which a body at rest would otherwise never feel.
//      A converged island still takes this last step (no new solve: it squares the error left in
//      Newton's quadratic range), tried at its CCD bound only. A converged body that a moving one
//      reaches joins its island and is solved again;
//   4. per island, α₀ = min(1, CCD bound of its bodies — ground and ACCD on body pairs), so no iterate
//      intersects anything and no joint limit is crossed; α halves until the island's energy does not
//      increase (an island whose joint rows are being restored takes α₀: its step need not descend);
//   5. adaptive κ update.
// A global line search would let one contact shrink every body's step, and a global stopping test
// would keep iterating bodies that are done. The iteration cap is reported, never hidden.
#include <vector>

#include "affix/solvers/ipc/barrier_stiffness.hpp"
#include "affix/solvers/ipc/incremental_potential.hpp"
#include "affix/solvers/ipc/islands.hpp"
#include "affix/solvers/ipc/joint_space.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"

namespace affix {

struct NewtonOptions {
  double h = 0.01;
  double tolerance = 3e-3;
  int max_iterations = 100;
  bool take_first_step = true;  ///< false when q already includes this step's loads (a friction re-lag)
  double dhat = 1e-3;
  bool adaptive_kappa = true;
  bool orthogonality_correction = true;  ///< search along Δq + c (orthogonality_correction.hpp)
  bool correction_at_ccd_bound = true;   ///< where CCD cuts the step to α₀ < 1, along Δq + α₀c instead
  BarrierStiffnessBounds kappa_bounds;
};

struct NewtonResult {
  int iterations = 0;         ///< Newton iterations until the last island converged (as IPC counts them:
                              ///< the solve that finds every island converged, and the last step it
                              ///< gives, are not counted)
  double residual = 0.0;      ///< the largest scaled step norm of step 3 among the islands' last steps (1/s)
  bool converged = false;
  int line_search_evaluations = 0;
  int warnings = 0;           ///< islands whose line search found no decrease
};

/// Minimises the incremental potential from q (intersection-free), in place. κ in `constants` may grow.
/// Throws SimulationError, naming the bodies, if the gradient or the Newton step is not finite, the
/// linear system cannot be factorised (non-finite or indefinite), or the energy overflows along the
/// whole step.
NewtonResult newton_solve(IncrementalPotential& potential, StepConstants& constants, VecX& q,
                          const std::vector<AffineBody>& bodies, const std::vector<double>& body_radii,
                          const NewtonOptions& options, SparseCholesky& linear_solver,
                          const JointSpace& joints);

/// Per island, the largest safe fraction of the move dq (CCD on ground and body pairs), applied to q.
/// Used to move towards a predicted state before the Newton iterations.
void safe_island_move(IncrementalPotential& potential, const std::vector<AffineBody>& bodies, VecX& q,
                      const VecX& dq);

}  // namespace affix
