#pragma once
// The `compliant` solver (Andrews 2017, Geometric Stiffness for Real-time Constrained Multibody
// Dynamics): rigid bodies in maximal coordinates (solvers/rigid/rigid_body.hpp), joints as compliant constraint
// rows (joints/rigid_jacobian.hpp), one linear solve per step.
//
// A step (Andrews Eq. 2–3, velocity-level implicit Euler with the rows linearised at the start):
//   (S + J M̃⁻¹ Jᵀ) μ = −Γφ/h − J M̃⁻¹(p + h f) − J_d v_d,   v₊ = M̃⁻¹(p + h f + Jᵀμ),   μ = hλ,
// p = M v the bodies' momenta (linear, and the angular momentum L), f gravity and the scene's forces,
// φ and J the rows at the start of the step, J_d v_d the rows' share of the prescribed velocity of
// fixed and kinematic bodies; S = C/h² and Γ = 1 unless constraint-space damping changes them
// (stability_damping.hpp). M̃ is M, M + hB or M − h²K̃ by `settings.compliant.stabilization`; K̃ and K_d
// are evaluated with the previous step's λ (Andrews Eq. 25: "the Lagrange multiplier at the previous
// time step"). Then c += h v₊, R ← exp(hω₊)R, and the new momenta are M v₊ (the damping of M̃ − M takes
// its share away). A joint's `stiffness` k makes its rows' compliance C = 1/k.
//
// After the step the poses are projected back onto the rows (project_poses, not in the paper). Halving
// (not in the paper either; as the impulse solver does): a heavy body on a long chain of light links
// (chain_100: 40 kg on 100 × 0.04 kg) pulls the chain nearly straight, and the step's drift O(h²|ω|²r)
// then lengthens it; a straight chain shortens only to second order in its bending, so the linearised
// projection overshoots (a fold) and stalls at ~10⁻⁵ m even with its line search. A step whose
// projection leaves a rigid row (compliance ≤ kRigidCompliance) above kProjectionTolerance, not even a
// decade below where the step left it, is restarted from its initial state as two half steps,
// recursively down to h/64: each half quarters the drift. Halvings are counted in stats.csv's
// `warnings`; `iterations` counts the substeps' linear solves.
#include <memory>
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/model/simulator.hpp"
#include "affix/solvers/compliant/augmented_mass.hpp"
#include "affix/solvers/compliant/compliant_settings.hpp"
#include "affix/solvers/compliant/drive_rows.hpp"
#include "affix/solvers/compliant/reduced_system.hpp"
#include "affix/solvers/rigid/rigid_body.hpp"

namespace affix {

class CompliantSimulator final : public Simulator {
 public:
  /// Throws InputError for a scene the solver cannot run (check_model).
  explicit CompliantSimulator(std::shared_ptr<const Model> model);

  /// Its settings read and the model within its capabilities. Throws InputError naming the JSON path.
  static void check_model(const Model& model);
  static SolverCapabilities capabilities();

  const char* name() const override { return "compliant"; }
  StepStats step() override;
  double time() const override { return step_ * model_->settings.dt; }
  int step_count() const override { return step_; }
  std::vector<BodyPose> poses() const override;
  std::vector<BodyVelocity> velocities() const override;
  std::vector<JointRecord> joint_records() const override;
  std::vector<ContactRecord> contact_records() const override { return {}; }

  const CompliantSettings& settings() const { return settings_; }
  /// The multipliers λ of the last step (N, N·m), in row order.
  VecX multipliers() const;

 private:
  RigidPose rigid_pose(int body) const;
  /// J and φ at the current poses.
  void evaluate_rows();
  /// K̃ of every joint at the current poses for the last λ.
  void evaluate_stiffness();
  void check_finite() const;
  /// λ at t = 0 from one plain solve, for the first step's K̃.
  void estimate_initial_multipliers();
  /// Moves the poses onto the rows (φ = −Cλ) by Gauss–Newton steps on M⁻¹ (settings.projection_iterations),
  /// each shortened by halving until it lowers the largest row error. False when it stalls: the rows
  /// still off by kProjectionTolerance after the last iteration.
  bool project_poses(double h);
  /// y = M̃⁻¹x: the dense inverse (geometric stiffness) or the blocks W_.
  VecX apply_W(const VecX& x, bool dense) const;
  /// μ (mu_) of the reduced system with right-hand side rhs − J M̃⁻¹ free, the bounded drives' |μ| ≤ hF
  /// kept by an active set (held_), and v₊ = M̃⁻¹(free + Jᵀμ), which it returns; sets residual_.
  VecX solve_rows(const VecX& free, const VecX& rhs, double h, bool dense);
  /// One step of h from t (header comment); false when its projection stalled.
  bool substep(double t, double h);
  /// A substep of h at halving depth `depth`, restarted as two halves while its projection stalls.
  void advance(double t, double h, int depth);

  std::shared_ptr<const Model> model_;
  CompliantSettings settings_;
  std::vector<RigidBody> bodies_;       // rigid_body.hpp, shared with impulse
  std::vector<PrescribedMotion> prescribed_;  // per model body (used for prescribed ones)
  std::vector<int> unknown_of_;          // per model body: its index among the unknowns, or −1
  std::vector<int> moving_;              // the unknowns' model indices
  std::vector<Vec3> prescribed_v_, prescribed_w_;  // per model body: velocity over the current step
  std::vector<RigidJoint> joints_;       // the joints with a moving side
  std::vector<int> joint_index_;         // their model indices
  std::vector<double> compliance_;       // per row
  std::vector<double> damping_;          // per row: its own damping b (N·s/m, N·m·s/rad; a cable DOF's), Eq. 14
  std::vector<DriveRow> drives_;         // motors and servos (drive_rows.hpp), one row each
  std::vector<int> drive_joint_;         // per drive: its joint in joints_
  int drive_offset_ = 0;                 // the first drive row: the drives follow the joint rows
  std::vector<int> held_;                // per drive: 0, or ±1 when held at ±hF (solve_rows; kept between steps)
  std::vector<RigidPose> next_pose_;     // per model body: its pose after a drift at its velocity (row_curvature.hpp)
  std::vector<Vec6> next_velocity_;      // per model body: that velocity (v, ω)
  VecX curvature_;                       // per joint row: d of row_curvature.hpp
  std::vector<Vec3> force_points_;       // rest-frame point of each force, relative to the body origin
  ConstraintJacobian J_;
  VecX phi_, mu_, S_, Gamma_;
  ReducedSystem system_;
  std::vector<Mat6> M_, W_;              // per unknown: mass and the block of M̃⁻¹
  std::vector<PlacedStiffness> K_;       // per joint
  std::vector<PlacedTerm> terms_;
  MatX W_dense_;
  std::vector<RigidBody> saved_;         // project_poses(): the moving bodies before a trial correction
  struct Snapshot {
    std::vector<RigidBody> bodies;
    VecX mu;
    double mu_h = 0.0;
  };
  std::vector<Snapshot> snapshots_;     // per halving depth: the state its substep starts from
  double mu_h_ = 0.0;                   // the h of the substep that produced mu_ (μ = hλ)
  double residual_ = 0.0;               // the last substep's relative residual of Eq. 3
  int halvings_ = 0, substeps_ = 0;     // of the current step
  static constexpr int kMaxHalvings = 6;  // down to h/64
  /// m (lengths) or cosines: a projection ending further from the rows than this has stalled.
  static constexpr double kProjectionTolerance = 1e-7;
  /// Rows this stiff (the default `compliance` 10⁻¹²) are the rigid joints that halving keeps closed.
  static constexpr double kRigidCompliance = 1e-11;
  /// The largest |rows[r]| over the rigid rows.
  double rigid_error(const VecX& rows) const;
  int step_ = 0;
};

}  // namespace affix
