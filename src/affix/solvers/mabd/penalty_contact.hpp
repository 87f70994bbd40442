#pragma once
// Contact in the mabd solver by implicit penalty (He 2026 §6, Figs. 13, 17, 19, 20: "we use the implicit
// penalty method to handle collisions among articulated bodies and collisions with the collider").
//
// Why a penalty and not IPC's barrier (He 2026 §7): a barrier's Hessian is nonlinear and couples bodies
// off the diagonal of the primal matrix, which defeats the pre-factorised per-body solve. A quadratic
// penalty is added to the incremental potential beside the elasticity (so its terms carry h² like Ψ):
//   ground, vertex x = J(x̄)q below the plane z = z₀ by δ = z₀ − x_z > 0:   E = ½ k δ²,
//     ∇E = −k δ J(x̄)ᵀ e_z,  ∇²E = k J(x̄)ᵀ e_z e_zᵀ J(x̄)  (exact: δ is linear in q);
//   body–body stencil (contact_stencils.hpp: point–point/line/plane, edge–edge) with unsigned distance
//     d = √s < ξ (ξ = contact_thickness, the shell that stands in for a signed distance, which two
//     meshes do not have cheaply):  E = ½ k (ξ − d)²,  in the stacked positions
//       E_s = −k (ξ − d) / (2d),   E_ss = k ξ / (4 d³),   ∇E = E_s ∇s,  ∇²E = E_ss ∇s∇sᵀ + E_s ∇²s,
//     times the parallel-edge mollifier for edge–edge (as the barrier, contact_barrier.hpp), the stencil
//     Hessian projected to PSD, then mapped to each body's 12 DOFs through J(x̄) (J is constant).
// Unsigned distance has no inside: a stencil stepped across (d through 0) would push the wrong way, and
// stepping over the ξ shell skips the penalty altogether; crossed edge pairs then pull a body's vertices
// every way (a collapsing tree of spheres passed through itself). So no Newton update may cross a body–body stencil: every update — the initial guess
// qⁿ → q̃ and each Δq — is cut to α Δq, α the additive-CCD bound (Li 2021; additive_ccd.hpp, s = 0.1) of
// the candidates along it (max_step), as in IPC's line search. The meshes then stay intersection-free
// (from an intersection-free start, prescribed bodies apart: they go to their state regardless), every
// distance stays > 0 and ∇d keeps its side, and a contact too fast for the penalty (kξ per stencil) is
// stopped, not passed through: the cut step is an inelastic impact. A cut step is not a converged one:
// the step takes another iteration (≤ kMaxContactPasses), which sees the contact in its penalty.
// α scales every moving body's update alike, so rows linear in q (ball, the point rows of every joint)
// stay exact where they were, C(q + αΔq) = (1 − α) C(q) = C(q) = 0 only if C(q) = 0; nonlinear rows
// (the hinge's axis rows) keep a second-order error α(1 − α)O(‖Δq‖²) until the next iteration.
// The ground is a signed half-space (δ grows without bound below it), so it needs no CCD.
//
// One broad phase per step. begin_step sweeps every vertex's box from the start of the step to q̃ and
// inflates it by ξ + σ, σ = 2ξ: while every vertex stays within σ of
// its swept box, any two primitives within ξ (or meeting along an update) had boxes within ξ + 2σ, so
// they are among the candidates, and the iterations, the new-contact check, the CCD and the statistics
// all reuse them. A vertex that leaves (a Newton correction larger than σ) redoes the broad phase there.
//
// Keeping H block diagonal. A body–body stencil's Hessian on its two moving bodies is [A B; Bᵀ C] (PSD).
// Dropping B would leave H block diagonal, so the dual-space KKT solve (kkt_system.hpp) is unchanged —
// but plain block Jacobi overshoots: two equal bodies of mass m pressed together by a spring k ≫ m/h²
// each move as if the other stood still, closing the gap twice. Instead each body keeps 2A (resp. 2C):
//   2 diag(A, C) − [A B; Bᵀ C] = S [A B; Bᵀ C] S,  S = diag(I, −I),  is PSD,
// so diag(2A, 2C) majorises the coupled Hessian, and the Newton step on the majorised quadratic model
// still lowers the true one (it cannot overshoot); for two equal bodies head-on it is the coupled step
// exactly. A stencil against a fixed or kinematic body has no B (that side's motion is prescribed), and
// its moving side keeps A once.
//
// Stiffness. `contact_stiffness` k (N/m per contact) when given; otherwise k = κ m / h² with κ = 100 and
// m the mass of the heaviest moving body in the contact: the penalty then dominates that body's inertia
// M/h² in the Newton matrix, and a body of mass m resting on n contacts sinks δ = m g / (n k) = g h² /
// (κ n) (1e-5 m for one contact at h = 0.01 s). Frictionless.
#include <optional>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/energy/stencil_derivatives.hpp"
#include "affix/model/records.hpp"
#include "affix/scene/scene.hpp"
#include "affix/solvers/contact/contact_stencils.hpp"

namespace affix {

/// κ of the default stiffness k = κ m / h² (header).
inline constexpr double kPenaltyStiffnessFactor = 100.0;

/// ½ k δ² over body i's vertices below the ground z = height, in its 12 DOFs (header); Hessian exact.
struct AffineDerivatives {
  double value = 0.0;
  Vec12 gradient = Vec12::Zero();
  Mat12 hessian = Mat12::Zero();
};
AffineDerivatives ground_penalty(const AffineBody& body, const Vec12& q, double height, double k);

/// ½ k (ξ − d)² on one stencil in its stacked positions, mollified for edge–edge, times its multiplicity;
/// zero when d ≥ ξ. The Hessian is not projected.
StencilDerivatives stencil_penalty(const ContactStencil& s, const Vec12& positions, double thickness, double k);

/// How many more Newton iterations a step takes, at most, while sees_new_contacts says so.
inline constexpr int kMaxContactPasses = 4;

/// Every penalty contact of a step's iterate, as each moving body's gradient and Hessian block.
class PenaltyContact {
 public:
  /// `bodies` must outlive this. stiffness: k, or absent for κ m / h².
  /// `body_pairs` false: the ground only (settings.mabd.body_contact).
  PenaltyContact(const std::vector<AffineBody>& bodies, const std::optional<Ground>& ground, bool body_pairs,
                 double thickness, std::optional<double> stiffness, double h);

  /// What the contacts at q are: min_distance (m; inf when none within ξ or below the ground: ground
  /// vertices count at their height), how many are active, the deepest penetration (m: below the
  /// ground, or into the ξ shell of a body–body contact; 0 when none).
  struct Proximity {
    double min_distance = 0.0;
    int active = 0;
    double max_penetration = 0.0;
    double energy = 0.0;  ///< Σ E (J)
    /// The deepest vertex below the ground: its body and depth (m; −1 and 0 when none). Body pairs are
    /// kept apart by the CCD of max_step, so this is the only overlap (io/contact_depth.hpp).
    int ground_overlap_body = -1;
    double ground_overlap = 0.0;
  };

  /// The step's broad phase (header): candidates of the motion from q_start (every body at the start of
  /// the step, prescribed ones at their new state) to q_end (the initial guess).
  void begin_step(const std::vector<Vec12>& q_start, const std::vector<Vec12>& q_end);
  /// The largest α ∈ [0, 1] such that q + α dq crosses no body–body stencil (additive CCD, header); 1
  /// when nothing is near. dq is zero for prescribed bodies.
  double max_step(const std::vector<Vec12>& q, const std::vector<Vec12>& dq);

  /// Evaluates every contact at q (all bodies, prescribed ones at their prescribed state). Afterwards
  /// gradient(i)/hessian(i) are body i's ∇E and its block of ∇²E (majorised, header), zero when
  /// touches(i) is false. Repeated at the same q, it returns the last result.
  Proximity evaluate(const std::vector<Vec12>& q);
  bool touches(int i) const { return touched_[i] != 0; }
  /// Whether anything can touch at all: a ground, or a body pair that may collide.
  bool can_touch() const { return ground_.has_value() || any_pairs_; }
  /// Whether some body pair may collide (settings.mabd.body_contact and the collision filters).
  bool has_body_pairs() const { return any_pairs_; }
  /// Evaluates at q and says whether a contact is active there that was not at the last evaluation:
  /// the Newton step just taken did not see it (its penalty is a hinge, ½k max(δ, 0)², and one
  /// iteration only knows the contacts at its start), so the step needs another iteration. Without
  /// it a landing body sinks a whole step's fall unopposed, is thrown out the next, and chatters.
  bool sees_new_contacts(const std::vector<Vec12>& q);
  const Vec12& gradient(int i) const { return gradient_[i]; }
  const Mat12& hessian(int i) const { return hessian_[i]; }
  /// The ground contacts at q, one per vertex below the ground: the point midway between the vertex
  /// and the ground, the normal +z (from the ground towards the body), the signed distance and the
  /// penalty force k·δ (N). At rest their forces sum to the body's weight. Body–body contacts are not
  /// listed (README, the mabd solver's Contact).
  std::vector<ContactRecord> ground_records(const std::vector<Vec12>& q) const;
  /// Σ E at q (J), for tests (a broad phase of its own).
  double energy(const std::vector<Vec12>& q) const;
  /// Stiffness of a contact between model bodies i and j (j = −1: the ground).
  double stiffness(int i, int j) const;
  double thickness() const { return thickness_; }
  /// Broad phases run so far (begin_step's and the redone ones), for tests.
  int broad_phases() const { return broad_phases_; }
  std::size_t candidate_count() const { return candidates_.size(); }

 private:
  /// Candidates of the vertex motion x0 → x1, with the swept boxes they cover (header).
  void broad_phase(const WorldVertices& x0, const WorldVertices& x1);
  /// Every vertex within σ of its swept box, so the candidates still hold.
  bool covers(const WorldVertices& x) const;
  /// The body–body stencils within ξ at q into prox, gradient_ and hessian_.
  void add_pairs(const std::vector<Vec12>& q, Proximity& prox);

  const std::vector<AffineBody>& bodies_;
  std::optional<Ground> ground_;
  double thickness_;
  std::optional<double> stiffness_;
  double h_;
  bool any_pairs_ = false;  // some body pair may collide at all
  std::vector<std::vector<std::array<int, 2>>> edges_;
  std::vector<ContactCandidate> candidates_;  // of the current broad phase
  WorldVertices box_min_, box_max_;           // each vertex's swept box of that broad phase
  double slack_ = -1.0;                       // σ; negative: no broad phase yet
  int broad_phases_ = 0;
  std::vector<Vec12> last_q_;  // the last evaluate's q and result
  Proximity last_;
  std::vector<char> touched_;
  std::vector<std::array<int, 2>> ground_active_;  // (body, vertex) below the ground, sorted
  std::vector<ContactStencil> pair_active_;         // body–body stencils within ξ, sorted
  std::vector<Vec12> gradient_;
  std::vector<Mat12> hessian_;
};

}  // namespace affix
