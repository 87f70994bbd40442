#pragma once
// The `impulse` solver (Tomcin, Sibbing, Kobbelt 2014): rigid bodies in maximal coordinates
// (solvers/rigid/rigid_body.hpp) kept on their joints by impulses. A step from t⁽ˡ⁾ to t⁽ˡ⁺¹⁾ = t⁽ˡ⁾ + h
// (Tomcin §3, Fig. 2):
//   1. external impulses: u₊ = u₋ + h M⁻¹ f(t⁽ˡ⁾)  (gravity, forces, torques: the load of [t, t + h))
//   2. velocity correction: A p = −J u₊, u₊ += M⁻¹Jᵀp, so that ċ = J u₊ = 0
//   3. joint correction, the modified Newton iteration (Eq. 2–4): preview the poses at t⁽ˡ⁺¹⁾ by free
//      flight with u₊ and read c = c⁽ˡ⁺¹⁾(p); stop when ‖c‖∞ < ε_P, else A Δp = −c/h, u₊ += M⁻¹JᵀΔp.
//      A = J M⁻¹ Jᵀ at t⁽ˡ⁾ is factorised once (articulation_system.hpp) and reused by every iteration.
//   4. free flight to t⁽ˡ⁺¹⁾ with u₊: the previewed poses, which keep the joints to ε_P; u₋ = u₊.
// A depends on the poses alone, so the factorisation made at the end of a step serves the next one:
// one numeric factorisation per step (two while a limit is active, below).
//
// Free flight is symplectic Euler (velocities first, then positions with the new velocities; a free
// fall is exactly implicit Euler's). The paper's Appendix A, a velocity-Verlet integration that keeps
// the implicit distinction of contacts and collisions, is lost from our copy; `settings.impulse.
// integration` "velocity_verlet" is our reading of it: step 1 gives half the external impulse, and after
// step 4 the other half (at t⁽ˡ⁺¹⁾'s poses) and a velocity correction at t⁽ˡ⁺¹⁾, RATTLE's velocity
// projection — kick–drift–kick velocity Verlet with the constraint impulses of SHAKE/RATTLE, which is
// symplectic and second order. Either way the rotation drifts by the exact exp(hω) at ω = I⁻¹L of the
// start of the step, and impulses change L, so torque-free flight keeps L exactly.
//
// Limits (hinge, prismatic, slider, cone-twist ranges; distance min/max) are unilateral rows that are
// active in a step when the preview after the velocity correction violates them: an active row holds
// its coordinate ε_P/2 inside the bound, to within ε_P/2, so never beyond it (an inelastic stop), and
// is released when its impulse would pull; the active set is settled by repeating the joint correction
// (at most kMaxLimitPasses).
// Redundant rows of closed loops are made solvable by the Tikhonov term α = ε_T‖A‖₁ (§4).
//
// Halving (not in the paper): the modified Newton iteration converges when the true gradient of
// c⁽ˡ⁺¹⁾(p), h Ĵ M⁻¹ Jᵀ with Ĵ the rows at the preview (exact_newton.hpp), stays close to hA relative to
// A's smallest eigenvalue. A heavy body on a long chain of light links (chain_100: 40 kg on 100 × 0.04 kg)
// makes that eigenvalue tiny (the tension mode: λ_min/λ_max ≈ 5·10⁻⁶), while the links' turn within the
// step, hω, makes Ĵ − J large: then even exact Newton finds no root near p = 0 (a fold of p ↦ c, its
// residual stalls at ~10⁻⁵ m). So a step whose joint correction stalls after the exact-Newton fallback
// is restarted from its initial state as two half steps, recursively down to h/64; each half halves hω.
// Halvings are counted in stats.csv's `warnings` (with the exact-Newton factorisations); a step that
// still does not converge at h/64 ends as before, flagged hit_iteration_cap. The next steps start at the
// depth this one needed and return one level coarser after 8 steps without a further halving.
#include <memory>
#include <vector>

#include "affix/joints/joint_turns.hpp"
#include "affix/model/simulator.hpp"
#include "affix/model/state_edits.hpp"
#include "affix/solvers/impulse/articulation_system.hpp"
#include "affix/solvers/impulse/exact_newton.hpp"
#include "affix/solvers/impulse/impulse_settings.hpp"
#include "affix/solvers/rigid/collision_detection.hpp"
#include "affix/solvers/rigid/rigid_body.hpp"

namespace affix {

class ImpulseSimulator final : public Simulator {
 public:
  /// Throws InputError for a scene the solver cannot run (check_model).
  explicit ImpulseSimulator(std::shared_ptr<const Model> model);

  /// Its settings read, and the model within its capabilities: no ground, the default integrator.
  /// Throws InputError naming the JSON path.
  static void check_model(const Model& model);
  static SolverCapabilities capabilities();

  const char* name() const override { return "impulse"; }
  StepStats step() override;
  double time() const override { return step_ * model_->settings.dt; }
  int step_count() const override { return step_; }
  std::vector<BodyPose> poses() const override;
  std::vector<BodyVelocity> velocities() const override;
  std::vector<JointRecord> joint_records() const override;
  /// The contacts the last step's contact phase pushed apart (first sweep), force = p_n / h.
  std::vector<ContactRecord> contact_records() const override { return records_; }
  // Edits between steps (impulse_edits.cpp; model/state_edits.hpp checks them).
  void set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) override;
  void apply_force(int body, const Vec3& force, const Vec3& point) override;
  void set_kinematic_target(int body, const BodyPose& target) override;

  /// Symbolic analyses of A so far: one per kinematic graph (tests).
  int symbolic_analyses() const { return system_.symbolic_analyses(); }
  /// Bodies and rows the system has after body splitting (tests, benchmarks).
  int system_bodies() const { return static_cast<int>(bodies_.size()); }
  int system_rows() const { return system_.size(); }

 private:
  /// A joint with a moving side, as the system sees it.
  struct Joint {
    int model_index = -1;
    RigidJoint rows;
    std::array<int, 3> limit_side{};  ///< per limit: 0 inactive, +1 held at min, −1 held at max
  };

  /// J at the current poses into J1_/J2_ (limit rows signed by their side, zero when inactive), each
  /// moving body's W = M⁻¹, and each prescribed body's pose and twist.
  void evaluate_jacobians();
  /// The active limit rows into J1_/J2_ and free_.
  void set_limit_rows();
  /// Every joint block's Jacobians (and its limits' rates) at the given poses into J1_/J2_.
  void joint_jacobians(const std::vector<RigidPose>& poses);
  /// Factorises the exact Newton matrix at the current preview and makes the joint correction use it.
  void exact_newton();
  void factorize();
  /// The previewed poses at t + h by free flight with the current velocities.
  void preview();
  /// c at the previewed poses (active rows only; inactive limit rows give 0); returns ‖c‖∞.
  double preview_violation();
  /// J u of every row with the current velocities.
  void constraint_velocities(VecX& out) const;
  /// u += M⁻¹ Jᵀ (scale Δp).
  void apply(const VecX& dp, double scale = 1.0);
  /// One velocity correction: A p = −J u.
  void velocity_correction();
  /// The joint correction (§3); returns its iterations and sets capped_ when it hit max_iterations.
  /// With may_give_up it stops early (gave_up_) when exact Newton stalls too or the cap is reached.
  int joint_correction(double& residual, bool may_give_up);
  /// One step of length h from t_ (the §3 step, 1–4); false when it gave up (nothing moved then).
  bool substep(double h, bool may_give_up, StepStats& stats);
  /// A substep of h, halved recursively while its joint correction does not converge (header).
  bool advance(double h, int depth, StepStats& stats);
  /// Whether the active set changed (limits released or newly violated at the preview).
  bool update_limits();
  /// Joint corrections per step while the active set of limits settles (header).
  static constexpr int kMaxLimitPasses = 4;
  /// The external impulse of a duration `span` of the load active at t_load.
  void kick(double t_load, double span);
  void check_finite() const;

  // Contacts (impulse_contacts.cpp).
  /// j_c on one side (0: body1, 1: body2) of a contact along d, at these poses.
  Eigen::Matrix<double, 6, 1> contact_row(const RigidContact& c, const Vec3& d, int side,
                                          const std::vector<RigidPose>& poses) const;
  /// A body's (v, ω) with the pending joint impulses of the contact phase (joint_impulse_) applied.
  Eigen::Matrix<double, 6, 1> pending_velocity(int body) const;
  /// The contact's relative velocity along d with the current velocities (and pending impulses).
  double contact_rate(const RigidContact& c, const Vec3& d, const std::vector<RigidPose>& poses) const;
  /// The contact row along d coupled to the joints (the extended system of impulse_contacts.cpp): its
  /// effective inverse mass s − BᵀA⁻¹B (s where no articulated body is touched; then y is empty), 0
  /// where no impulse can change its rate; y = A⁻¹B for push().
  double couple(const RigidContact& c, const Vec3& d, const std::vector<RigidPose>& poses, VecX& y);
  /// The impulse along d that changes the contact's rate by `wanted` with the joints' rates kept;
  /// leaves y in coupled_ for push().
  double coupled_impulse(const RigidContact& c, const Vec3& d, double wanted, const std::vector<RigidPose>& poses);
  /// Applies the contact impulse and its joint impulses −y p_c (y from couple()).
  void push(const RigidContact& c, const Vec3& d, double impulse, const std::vector<RigidPose>& poses,
            const VecX& y);
  /// Impacts with restitution, on the velocities before the external impulses (§7).
  void collision_phase();
  /// Penetrations at the preview, friction, and the joint correction after each sweep; false when
  /// the joint correction gave up.
  bool contact_phase(StepStats& stats, bool may_give_up);
  double friction_of(const RigidContact& c) const;
  RigidPose pose_of(int body, const std::vector<RigidPose>& poses) const;

  std::shared_ptr<const Model> model_;
  ImpulseSettings settings_;
  std::vector<RigidBody> bodies_;
  std::vector<PrescribedMotion> prescribed_;  // per body (used for prescribed ones)
  std::vector<Vec3> force_points_;            // rest-frame application point of each force
  std::vector<AppliedForce> applied_;         // apply_force's, for the next step only (impulse_edits.cpp)
  std::vector<Joint> joints_;
  ArticulationSystem system_;
  // Per step, at the poses of the start of the step (t⁽ˡ⁾).
  std::vector<JointJacobian> J1_, J2_;   // per joint block
  std::vector<RigidRows> limit_rates_;   // per joint: the limit coordinates' Jacobians (unsigned)
  std::vector<char> free_;               // per row: an inactive limit row
  std::vector<Mat6> W_;                  // per body
  std::vector<RigidPose> now_, next_;    // per body: poses at t and the preview at t + h
  VecX c_, rhs_, dp_, p_;                // per row
  std::vector<RigidBody> saved_;         // the velocities a joint correction starts from, for a redo
  bool capped_ = false;
  bool gave_up_ = false;
  double h_ = 0.0;                       // the current substep's length
  int start_depth_ = 0;                  // the halving depth steps start at (step())
  int deepest_ = 0;                      // the deepest halving of this step
  int calm_steps_ = 0;                   // steps since start_depth_ last changed
  double t_ = 0.0;                       // the time the bodies are at (substeps included)
  std::vector<std::vector<RigidBody>> snapshots_;  // per halving depth: the state a substep starts from
  // Continuous limited angles (joints/joint_turns.hpp): a bound past ±180° is seen where the joint is.
  JointTurns turns_;                      // per joint
  std::vector<JointTurns> turn_snapshots_;  // per halving depth, beside snapshots_
  /// Each limited angle expected to turn by h ṡ over the drift at the bodies' current velocities, ṡ from
  /// limit_rates_ (the poses at t).
  void lead_turns();
  /// The limit coordinates of joint j at `poses`, angles continuous.
  RigidVector limit_values(std::size_t j, const std::vector<RigidPose>& poses) const;
  int refreshes_ = 0;                    // exact Newton factorisations in this step (joint_correction)
  ExactNewton exact_newton_;
  bool newton_active_ = false;
  std::vector<JointJacobian> Jhat1_, Jhat2_;  // per joint block: Ĵ of exact_newton.hpp
  double scene_size_ = 1.0;
  int model_bodies_ = 0;                  // bodies_ holds the model's, then the parts of split bodies
  std::vector<int> owner_;                // per body in bodies_: the model body it is (part of)
  CollisionDetection detection_;
  bool contacts_possible_ = false;        // a ground, or a pair of bodies that may touch
  std::vector<RigidContact> contacts_;
  std::vector<double> rates_;             // per contact: its normal rate when detected
  std::vector<Vec3> accumulated_;         // per contact: its impulses so far (normal, t₁, t₂)
  std::vector<ContactRecord> records_;
  std::vector<std::vector<std::pair<int, int>>> blocks_of_body_;  // per body: (joint block, side)
  VecX coupling_, coupled_;               // B and y = A⁻¹B of the contact coupling
  // Per contact of one detection and direction (3k: normal, 3k + 1, 3k + 2: tangents): y = A⁻¹B and
  // s − Bᵀy, which depend on the poses only, so that the Gauss–Seidel sweeps solve once per row.
  std::vector<VecX> coupled_rows_;
  std::vector<double> coupled_mass_;
  // The contact phase's joint impulses Σ −y p_c, applied to the bodies once after its Gauss–Seidel
  // sweeps (pending_) rather than to every body at every impulse; rates read them on their bodies.
  VecX joint_impulse_;
  bool pending_ = false;
  int step_ = 0;
};

}  // namespace affix
