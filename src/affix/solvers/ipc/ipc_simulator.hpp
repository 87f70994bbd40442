#pragma once
// The `ipc` solver: stiff affine bodies (Lan 2022) with intersection-free barrier contact between
// bodies and with the ground, lagged friction, and joints (Chen 2022 §4: linear rows eliminated by
// change of variables, penalties, limit barriers), integrated by implicit Euler or BDF-2 (Chen 2022
// §3) with semi-implicit Rayleigh damping (Chen 2022 §5) in one Newton barrier solve.
#include <memory>
#include <optional>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/solvers/ipc/incremental_potential.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "affix/solvers/ipc/newton_solver.hpp"
#include "affix/solvers/ipc/time_integrator.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"
#include "affix/model/simulator.hpp"
#include "affix/model/state_edits.hpp"

namespace affix {

class IpcSimulator final : public Simulator {
 public:
  /// Builds the affine bodies and the joints' affine forms from a compiled model (whose start checks
  /// have passed). Throws InputError if settings.ipc is not valid, or if bodies that may touch start
  /// closer than 10⁻³·d̂ (the barrier would be too steep to solve). Joint rows found linearly
  /// dependent are dropped with a warning on stderr.
  explicit IpcSimulator(std::shared_ptr<const Model> model);

  /// The ipc solver's own start conditions on a compiled model, without building the solver: its
  /// settings.ipc reads (read_ipc_settings), and bodies that may touch start at least 10⁻³·d̂ apart,
  /// and from the ground. Throws InputError naming the JSON path or the pair.
  static void check_model(const Model& model);

  /// Everything: contact with friction, every joint type with limits, both integrators, damping,
  /// prescribed motion, and no interpenetration ever (Lan 2022 §4, Chen 2022).
  static SolverCapabilities capabilities();

  const char* name() const override { return "ipc"; }
  StepStats step() override;
  double time() const override { return step_ * settings_.dt; }
  int step_count() const override { return step_; }
  std::vector<BodyPose> poses() const override;
  std::vector<BodyVelocity> velocities() const override;
  std::vector<JointRecord> joint_records() const override;
  std::vector<ContactRecord> contact_records() const override;
  /// Also refuses a state in which bodies that may touch are closer than 10⁻³·d̂ (as at the start).
  /// The joints' virtual links move rigidly with the first scene body they join; joint rows the new
  /// state breaks are restored by the next step's Newton solve (joint_space.hpp).
  void set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) override;
  void apply_force(int body, const Vec3& force, const Vec3& point) override;
  void set_kinematic_target(int body, const BodyPose& target) override;

  /// The model's bodies, then the joints' virtual links.
  const std::vector<AffineBody>& bodies() const { return bodies_; }
  const JointModel& joints() const { return joints_; }
  /// q̇ of every model body at the current step (the integrator's velocity).
  std::vector<Vec12> state_velocities() const;

 private:
  StepConstants step_constants(const VecX& q_start, const std::vector<Prediction>& predictions) const;
  void move_dirichlet_bodies(VecX& q, double t_next);
  void move_towards_rigid_prediction(VecX& q, const StepConstants& c);
  void check_finite(const VecX& q) const;

  std::shared_ptr<const Model> model_;
  const Settings& settings_;              // the model's
  IpcSettings ipc_settings_;              // settings.ipc, read by the solver (before what uses d̂)
  const std::vector<ForceDef>& forces_;   // the model's
  std::vector<AffineBody> bodies_;
  int scene_body_count_ = 0;
  DofLayout layout_;                      // bodies_' stacked DOFs, the joints' virtual links included
  JointModel joints_;                     // appends its virtual links to bodies_
  std::vector<Vec3> force_points_;        // rest-frame application point of each force
  std::vector<AppliedForce> applied_forces_;            // apply_force's, for the next step only
  std::vector<std::optional<Vec12>> kinematic_targets_;  // per body: set_kinematic_target's, held
  std::vector<Vec12> gravity_loads_;
  std::vector<double> body_radii_;
  std::vector<BodyHistory> history_;
  IncrementalPotential potential_;
  JointSpace joint_space_;
  std::vector<int> drivers_;              // per body: the kinematic body its joints hang from, or −1
  bool damped_ = false;                   // some contact or limit has a Rayleigh k_d
  SparseCholesky linear_solver_;
  NewtonOptions newton_options_;
  double scene_size_ = 1.0;               // diagonal of the bodies' box at t = 0: the runaway test's scale
  double average_mass_ = 1.0;
  double kappa_ = 0.0;                    // barrier stiffness carried from step to step
  int step_ = 0;
};

}  // namespace affix
