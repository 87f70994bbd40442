#pragma once
// Body–body contact inside the incremental potential (Lan 2022 §4): the barrier over every active
// stencil, lagged friction per contact, and the CCD bound of the line search — all mapped from the
// stencil's vertex positions to the affine DOFs of its two bodies by the chain rule x = J(x̄)·q
// (Chen 2022 Eq. 5): ∇_q = Σ_k J(x̄_k)ᵀ ∇_{x_k},  ∇²_q = Σ_kl J(x̄_k)ᵀ ∇²_{x_k x_l} J(x̄_l). Stencil
// Hessians are projected to PSD in vertex space before the (congruence) map, which keeps them PSD.
//
// Evaluations work on a candidate set fixed by the caller (update_candidates): the proximity
// candidates at q for derivatives, or the candidates swept over q → q + Δq for a line search, so that
// every trial point of the search sees every pair that can come within d̂ along it. The swept set
// also covers every point the search accepts, so the Newton solver keeps it as the next iteration's
// proximity set instead of building one more. Vertex positions and each candidate's reduction to its
// stencil are cached per evaluation point (contact_evaluation.hpp): asking again at the same q, or at
// a q where only some bodies moved, recomputes only what those bodies change.
#include <vector>

#include "affix/energy/friction.hpp"
#include "affix/model/records.hpp"
#include "affix/solvers/contact/broad_phase.hpp"
#include "affix/solvers/contact/contact_evaluation.hpp"
#include "affix/solvers/contact/contact_stencils.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

/// A contact frozen at the last friction lag update (Li 2020 §5): weights of the closest points, the
/// tangent basis, the normal force, and the stencil vertices' positions at the start of the step.
struct PairFriction {
  ContactStencil stencil;
  std::array<double, 4> weights{};
  Eigen::Matrix<double, 3, 2> tangent;
  double mu_lambda = 0.0;
  std::array<Vec3, 4> x_start{};
  /// The Newton Hessian's choice between iterates (friction.hpp); not part of the energy. Mutable:
  /// written where the derivatives are evaluated, each contact by one task, so deterministic.
  mutable SlipHistory history;
};

class BodyContactModel {
 public:
  BodyContactModel(const std::vector<AffineBody>& bodies, double dhat);

  /// Proximity candidates at q (dq == nullptr) or swept candidates over q → q + dq. Proximity
  /// candidates asked again at the q of the last proximity build are that build's, not a new one.
  void update_candidates(const VecX& q, const VecX* dq);
  /// How many times update_candidates ran the broad phase (for tests and profiles).
  int candidate_builds() const { return candidate_builds_; }
  /// The incremental broad phase behind update_candidates (broad_phase.hpp).
  const BroadPhase& broad_phase() const { return broad_phase_; }
  /// Body pairs of the current candidates (both bodies dynamic or not).
  std::vector<std::array<int, 2>> candidate_body_pairs() const;

  /// Adds βh²·(κ Σ b + Σ D) of every active stencil to the energy of the stencil's first body whose
  /// `include` flag is set.
  void add_energies(const VecX& q, double kappa, double beta_h2, const std::vector<PairFriction>& friction,
                    double friction_eps, const std::vector<char>& include, std::vector<double>& per_body) const;
  /// Adds βh²-scaled gradients and PSD Hessian blocks (diagonal and coupling) of the active stencils;
  /// with `touching`, only of the stencils and friction contacts on at least one flagged body (the
  /// others' rows are held by the caller).
  void add_derivatives(const VecX& q, double kappa, double beta_h2, const std::vector<PairFriction>& friction,
                       double friction_eps, VecX& gradient, BlockHessian& H,
                       const std::vector<char>* touching = nullptr) const;
  /// Adds k_d·PSD(∇²(κ b)) of every active stencil, k_d the larger `damping` of its two bodies (the
  /// Rayleigh damping's K, incremental_potential.hpp).
  void add_damping_hessian(const VecX& q, double kappa, BlockHessian& K) const;
  /// βh² ∇Σb (κ = 1) of the active stencils, for the adaptive barrier stiffness.
  void add_barrier_gradient(const VecX& q, double beta_h2, VecX& gradient) const;

  /// Per body, the ACCD bound of its candidate pairs along q + α dq (1 when unbounded); with
  /// `touching`, only pairs with a flagged body are checked (the others' bounds stay 1).
  std::vector<double> max_steps(const VecX& q, const VecX& dq, const std::vector<char>* touching = nullptr) const;
  /// Friction contacts at the lag point, with vertex positions from q_start.
  std::vector<PairFriction> lag_friction(const VecX& q_lag, const VecX& q_start, double kappa) const;

  struct Proximity {
    double min_distance;                ///< smallest stencil distance (inf when there is none)
    int active = 0;                     ///< stencils closer than d̂
    std::array<int, 2> closest{-1, -1}; ///< the bodies of the closest stencil
  };
  /// Proximity of the current candidates at q.
  Proximity min_distance(const VecX& q) const;

  /// The body–body contacts the barrier acts on at q, one per active stencil, from proximity
  /// candidates of its own (the candidate set of update_candidates is neither used nor changed).
  /// body1 < body2; point: midway between the two closest points; normal: unit, from body2's closest
  /// point to body1's; distance: d = √s of the stencil's sub-distance; force: the normal force of the
  /// stencil's barrier term, λ = m·k·κ·(−b'(d)) (N) with k its multiplicity and m the parallel-edge
  /// mollifier (1 unless edge–edge) — the κ·b of the physical potential, without βh².
  std::vector<ContactRecord> contact_records(const VecX& q, double kappa) const;

 private:
  /// Stencils within d̂ at the cached point among the candidates with a body flagged in `touching`
  /// (all when null), merged with their multiplicity (contact_stencils.hpp).
  std::vector<ContactStencil> active_at(const VecX& q, const std::vector<char>* touching) const;
  /// Resets the reductions for the new candidate list, keeping those of candidates it shares with the
  /// previous one.
  void keep_reductions();

  const std::vector<AffineBody>& bodies_;
  DofLayout layout_;  // the bodies' stacked layout (affine)
  std::vector<std::vector<std::array<int, 2>>> edges_;
  double dhat_;
  BroadPhase broad_phase_;  // after edges_ and layout_, which it refers to
  std::vector<ContactCandidate> candidates_;
  // The last proximity build, restored when proximity candidates are asked for at its q again.
  VecX proximity_q_;
  std::vector<ContactCandidate> proximity_candidates_;
  bool candidates_are_proximity_ = false;
  int candidate_builds_ = 0;
  // Caches of the const evaluations (contact_evaluation.hpp): they change what is recomputed, never a
  // result. x_ at the evaluation point q, x_end_ at the end q + Δq of a sweep.
  mutable VertexCache x_, x_end_;
  mutable CandidateEvaluation reduced_;
  // The list and reductions before the last update_candidates, kept over by keep_reductions().
  std::vector<ContactCandidate> previous_candidates_;
  CandidateEvaluation previous_reduced_;
  mutable VecX q_end_;
  mutable std::vector<double> scratch_;  // per candidate: an energy or a time of impact's lower bound
  mutable std::vector<int> order_;       // max_steps: the queried candidates by increasing lower bound
  mutable std::vector<double> toi_;      // ... and their times of impact, in that order
};

}  // namespace affix
