#pragma once
// The `mabd` solver (He 2026, M-ABD): stiff affine bodies, co-rotated so that each body's Newton matrix
// is constant and factorised once (corotated_body.hpp), joints kept exactly as compact rows through a
// dual-space KKT solve (kkt_system.hpp), by a solver chosen from the joint graph (dual_solver.hpp).
//
// A step (implicit Euler, He 2026 §3.2): q̃ = qⁿ + h q̇ⁿ + h²M⁻¹f, and from q = q̃ each Newton iteration
// solves
//   [H Gᵀ; G 0] [Δq; λ] = [−g; −C],  g = M(q − q̃) + h²∇Ψ(q),  H = Q H₀ Qᵀ,
// (the incremental potential ½‖q − q̃‖²_M + h²(Ψ − fᵀq) up to a constant: IPC's prediction, Chen 2022).
// The loads belong in q̃, not only in g: one Newton iteration linearises the rotation at q̃, and a torque
// left out of it turned a body along A's tangent plane, whose stretch the elasticity then took back
// (a cube under a constant torque reached 73 % of τt/I at h = 10⁻²). With C and G the joints' compact
// rows at q; then q̇ⁿ⁺¹ = (qⁿ⁺¹ − qⁿ)/h. Fixed and kinematic bodies are
// placed at their prescribed state first; their joints' rows then act on the moving side alone.
// One iteration per step is the default (the paper's), `settings.mabd.iterations` allows more, and a step
// whose bodies are left strained past `strain_tolerance` takes more, up to `max_iterations`.
#include <memory>
#include <optional>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/model/simulator.hpp"
#include "affix/model/state_edits.hpp"
#include "affix/solvers/mabd/ball_brackets.hpp"
#include "affix/solvers/mabd/corotated_body.hpp"
#include "affix/solvers/mabd/dual_solver.hpp"
#include "affix/solvers/mabd/joint_limits.hpp"
#include "affix/solvers/mabd/kkt_system.hpp"
#include "affix/solvers/mabd/mabd_settings.hpp"
#include "affix/solvers/mabd/penalty_contact.hpp"

namespace affix {

class MabdSimulator final : public Simulator {
 public:
  /// Throws InputError for a scene the solver cannot run (check_model).
  explicit MabdSimulator(std::shared_ptr<const Model> model);

  /// Its settings read, and the model within its capabilities: every joint of a type with compact rows
  /// and without limits, implicit Euler. Throws InputError naming the JSON path.
  static void check_model(const Model& model);
  static SolverCapabilities capabilities();

  const char* name() const override { return "mabd"; }
  StepStats step() override;
  double time() const override { return step_ * model_->settings.dt; }
  int step_count() const override { return step_; }
  std::vector<BodyPose> poses() const override;
  std::vector<BodyVelocity> velocities() const override;
  std::vector<JointRecord> joint_records() const override;
  /// The penalty ground contacts at the current state (penalty_contact.hpp's ground_records).
  std::vector<ContactRecord> contact_records() const override { return contact_->ground_records(q_); }
  /// Joint rows the new state breaks are pulled back by the next step's Newton iterations.
  void set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) override;
  void apply_force(int body, const Vec3& force, const Vec3& point) override;
  void set_kinematic_target(int body, const BodyPose& target) override;

  /// Whether ball joints go through their constant brackets (ball_brackets.hpp; the default) or, as the
  /// reference the tests compare with, through their rows G like every other joint.
  void use_constant_brackets(bool on) { use_brackets_ = on; }
  /// The system of the last Newton iteration (for tests).
  const KktSystem& kkt_system() const { return system_; }

 private:
  /// The KKT system of one Newton iteration at q. With `predict`, first sets each moving body's q to the
  /// prediction q̃ (the step's first iteration).
  void build_system(std::vector<Vec12>& q, const std::vector<Vec12>& loads, bool predict);
  /// Moving body i's prediction q̃ = qⁿ + h q̇ⁿ + h²M⁻¹f (header), f its step load, its kind's gravity when
  /// `gravity_only`; computed where it is read rather than kept: qⁿ, q̇ⁿ and f do not change during a step,
  /// and a one-iteration step never reads q̃ after its first build_system (an array of it was written and
  /// its pages read for nothing, 192 MB a step at 10⁶ bodies).
  Vec12 prediction(int i, const std::vector<Vec12>& loads, bool gravity_only) const;
  void check_finite(const std::vector<Vec12>& q) const;
  /// The twist stiffness of body i at its state q_[i] with rotation R (corotated_body.hpp), kept for the
  /// next step's iterations. Lagged like Andrews 2017's geometric stiffness, which reads the last step's
  /// constraint forces: the stress of the converged state is the body's real load, whereas the prediction
  /// q̃ = qⁿ + h q̇ⁿ is stretched by (hω)²/2 along every rotation, a spurious stress of E(hω)²/2 that
  /// would make one Newton iteration resist rotation and slow every swinging body down.
  void update_twist(int i, const Mat3& R);
  /// Γ of every moving body read at the iterate q instead (the step's iterations after its first).
  void refresh_twist(const std::vector<Vec12>& q);
  /// The gap x₀¹ − x₀² of active ball joint s at q (compact_rows.hpp's ball_gap).
  Vec3 ball_residual(std::size_t s, const std::vector<Vec12>& q) const;
  /// Adds the penalty contacts at q to system_'s bodies: h²∇E to g, and h²∇²E to H, factorised densely
  /// for the bodies it touches (penalty_contact.hpp).
  void add_penalty_contact(const std::vector<Vec12>& q);

  std::shared_ptr<const Model> model_;
  MabdSettings settings_;
  std::vector<AffineBody> bodies_;
  std::vector<Lame> lame_;                   // per body
  std::vector<CorotatedFactor> factors_;     // one per distinct (mass properties, material)
  /// What the step reads of the moving bodies of one factor, which all share it: their mass matrix,
  /// volume, material and gravity load. Read by factor index, so that the step's passes touch a few
  /// bytes per body instead of an 864 B AffineBody and a 96 B load each (they did, three times a step).
  struct BodyKind {
    AffineMass mass;
    double volume = 0.0;
    Lame lame;
    Vec12 gravity = Vec12::Zero();
    Mat12 load_compliance = Mat12::Zero();  // h²M⁻¹: a load's drift in the prediction
    Vec12 gravity_drift = Vec12::Zero();    // h²M⁻¹ × gravity
  };
  std::vector<BodyKind> kinds_;              // per factor
  std::vector<double> radius_;               // per body: its bounding radius (the step's convergence test)
  std::vector<int> factor_of_;               // per body
  std::vector<int> moving_index_;            // per body: its index among the moving bodies, or −1
  std::vector<int> moving_bodies_;           // the moving bodies' model indices
  std::vector<int> prescribed_bodies_;       // the fixed and kinematic bodies' model indices
  std::vector<double> edges_;                // per joint: the control-tetrahedron edge ℓ
  std::vector<int> active_joints_;           // the joints with a moving side, in model order: the KKT's
  std::vector<Vec3> force_points_;           // rest-frame application point of each force
  std::vector<AppliedForce> applied_forces_;            // apply_force's, for the next step only
  std::vector<std::optional<Vec12>> kinematic_targets_;  // per body: set_kinematic_target's, held
  std::vector<Vec12> loads_;                 // per body: gravity (the forces are added per step)
  std::vector<Vec12> q_, qdot_;              // per body
  std::vector<Mat3> twist_;                  // per body: h²Γ at the start of the step (lagged_twist)
  std::vector<Vec12> step_loads_, q_next_, update_;  // step()'s per-body arrays, kept
  KktSystem system_;
  JointLimits limits_;                       // clamps of out-of-range joint DOFs (joint_limits.hpp)
  std::unique_ptr<PenaltyContact> contact_;  // ground and body–body penalty contact
  std::vector<KktBody::Dense> dense_;        // per moving body: its contact-stiffened H, when touched
  DualSolver dual_solver_;
  BallBrackets brackets_;                    // the ball sides' constants, per distinct (H₀, P)
  /// Per active joint whose two sides are ball brackets: its bodies (model indices) and brackets, the
  /// 16 B that its gap reads (ball_residual), instead of a KktJoint's cache line and two index lookups
  /// (the step's statistics spent most of their time waiting for those lines); body1 −1 for the others.
  struct BallPair {
    int body1 = -1, body2 = -1, bracket1 = -1, bracket2 = -1;
  };
  std::vector<BallPair> ball_pairs_;
  std::vector<int> unpaired_joints_;  // the model joints that are not such a pair (max_joint_error by rows)
  bool use_brackets_ = true;
  double scene_size_ = 1.0;
  int step_ = 0;
};

}  // namespace affix
