#pragma once
// The incremental potential of one time step (Lan 2022 Eq. 9–12; Chen 2022 Eq. 1):
//   E(q) = Σ_bodies ½‖qᵢ − q̃ᵢ‖²_M + βh² [ Pₒ(qᵢ) − fᵢᵀqᵢ + κ Σ_v b(d_v(qᵢ)) + Σ_c D_c(qᵢ) ]
//        + βh² [ κ Σ_stencils b(d_s(q)) + Σ_pairs D_p(q) ]
//        + βh² [ Σ_penalties ½k c² + κ Σ_limits b(c) + R(q) ]
// with Pₒ the orthogonality potential, f the constant generalized loads (gravity, external forces and
// torques), b the barrier on every vertex within d̂ of the ground and on every body–body contact
// stencil within d̂, D the lagged friction of both, the joint penalties and limit barriers (Chen 2022
// §4.2–4.3, joint_energies.hpp), and R the semi-implicit Rayleigh damping (Chen 2022 §5.1):
//   R(q) = (γ/2) (q − q_off)ᵀ K (q − q_off),   K = Σ_stencils k_d · PSD(∇²(κ b))(qⁿ),
// the damping potential of Eq. 20 written with the integrator's velocity q̇ = γ(q − q_off): Eq. 20's
// (∂v/∂x)⁻ᵀ = I/γ turns ½k_d vᵀ(∂v/∂x)⁻ᵀ H v into (γ/2) eᵀ K e, e = q − q_off, whose gradient
// γ K e = k_d H v is Eq. 21 and whose Hessian γ K is Eq. 22. Per-body terms are evaluated in parallel and
// summed in body order, contact terms in stencil order (deterministic). Dirichlet (fixed, kinematic)
// bodies' DOFs are not unknowns: their own terms are constant and their rows are held.
#include <array>
#include <optional>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/joints/joint_model.hpp"
#include "affix/scene/scene.hpp"
#include "affix/solvers/contact/body_contact_model.hpp"
#include "affix/solvers/contact/ground_contact_model.hpp"
#include "affix/solvers/ipc/energy_term.hpp"
#include "affix/solvers/ipc/joint_energies.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

struct ContactSummary {
  double min_distance;  ///< smallest vertex–ground or candidate stencil distance (inf: none near)
  int active = 0;       ///< vertex–ground pairs and body–body stencils closer than d̂
  std::array<int, 2> closest{-1, -1};  ///< the bodies at min_distance (second −1: the ground)
};

class IncrementalPotential {
 public:
  /// `joints` must outlive the potential; the limits use ĉ = d̂.
  IncrementalPotential(const std::vector<AffineBody>& bodies, const std::optional<Ground>& ground,
                       double dhat, const JointModel& joints);

  /// Bodies whose DOFs are unknowns of the current solve (1) or held where they are (0).
  using BodyMask = std::vector<char>;

  /// The body–body candidates later evaluations use: proximity at q (dq == nullptr), or swept over
  /// q → q + dq, which covers every point of a line search along dq. Body pairs they link.
  void update_contact_candidates(const VecX& q, const VecX* dq) { contacts_.update_candidates(q, dq); }
  /// ... and the body pairs that joints couple.
  std::vector<std::array<int, 2>> coupled_body_pairs() const;

  /// Where each body's DOFs sit in the q, gradient and Hessian this potential takes and gives.
  const DofLayout& layout() const { return layout_; }

  double energy(const VecX& q, const StepConstants& c) const;
  /// The energy of each body in `active` (0 for the others), so that islands can be line-searched
  /// independently.
  std::vector<double> body_energies(const VecX& q, const StepConstants& c, const BodyMask& active) const;
  /// Gradient (layout().total()) and PSD-projected Hessian of the active bodies; the rows of Dirichlet and
  /// inactive bodies are identity with zero gradient, so their Newton step is zero.
  void gradient_and_hessian(const VecX& q, const StepConstants& c, const BodyMask& active,
                            VecX& gradient, BlockHessian& H) const;

  /// ∇ of the barrier sum βh² Σ b (κ = 1), and ∇ of everything else: the two sides that the
  /// adaptive barrier stiffness balances.
  void barrier_balance_gradients(const VecX& q, const StepConstants& c, VecX& barrier_grad,
                                 VecX& rest_grad) const;

  /// Ground friction contacts at the lag point q_lag: λ = κ·(−b'(d)) for every vertex within d̂.
  std::vector<std::vector<GroundFrictionContact>> lag_friction(const VecX& q_lag, const VecX& q_start,
                                                               double kappa) const;
  /// Body–body friction contacts at q_lag (needs proximity candidates at q_lag).
  std::vector<PairFriction> lag_pair_friction(const VecX& q_lag, const VecX& q_start, double kappa) const {
    return contacts_.lag_friction(q_lag, q_start, kappa);
  }

  /// Per body, the largest α ∈ (0, 1] such that no vertex comes closer to the ground, and no candidate
  /// stencil closer together, than a tenth of its current distance along q + α·dq (linear CCD, ACCD for
  /// body pairs: vertex trajectories are linear in q). Needs swept candidates for dq.
  std::vector<double> max_steps(const VecX& q, const VecX& dq, const BodyMask& active) const;

  ContactSummary contact_summary(const VecX& q) const;
  /// The contacts the potential's barriers act on at q (model/records.hpp), ground first (body by body,
  /// vertex by vertex), then the body–body stencils (BodyContactModel::contact_records). A vertex of a
  /// dynamic body within d̂ of the ground: point midway between the vertex and its foot on the ground,
  /// normal +z, distance d, force λ = κ·(−b'(d)) (N) — the barrier κ·b of the physical potential, whose
  /// βh² factor belongs to the step's scaling, not to the force. Nothing cached is used or changed.
  std::vector<ContactRecord> contact_records(const VecX& q, double kappa) const;
  /// The smallest barrier argument: contact distances and limit functions (for the adaptive κ).
  double min_barrier_distance(const VecX& q) const;

  /// K of the Rayleigh damping at qⁿ (header): k_d-weighted PSD barrier Hessians of the ground
  /// contacts (k_d: the larger of body and ground `damping`), body pairs (the larger of the two) and
  /// joint limits (the joint's `damping`). Needs proximity candidates at q.
  BlockHessian damping_hessian(const VecX& q, double kappa) const;

  /// Physical potential energy for statistics (J): gravity −f_gᵀq (f_g per body), orthogonality and
  /// barrier, without the βh² factor.
  double potential_energy(const VecX& q, const std::vector<Vec12>& gravity_loads, double kappa) const;

 private:
  double body_potential(int i, const Vec12& q, const StepConstants& c) const;

  const std::vector<AffineBody>& bodies_;
  DofLayout layout_;  // every body affine, in body order
  double dhat_;
  GroundContactModel ground_contacts_;
  BodyContactModel contacts_;
  JointEnergies joints_;
  std::vector<std::array<int, 2>> joint_pairs_;
  BodyContactTerm contact_term_;
  JointTerm joint_term_;
  RayleighDampingTerm damping_term_;
  /// The coupling terms in their fixed summation order: contact, joints, damping.
  std::array<const EnergyTerm*, 3> coupling_terms() const { return {&contact_term_, &joint_term_, &damping_term_}; }
};

/// The affine DOFs of body i (every ipc body is affine) in a stacked vector laid out by `layout`.
inline auto body_segment(const DofLayout& layout, VecX& x, int i) { return layout.segment<kAffineDofs>(x, i); }
inline auto body_segment(const DofLayout& layout, const VecX& x, int i) {
  return layout.segment<kAffineDofs>(x, i);
}

}  // namespace affix
