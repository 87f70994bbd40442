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
// recursively down to h/64: each half quarters the drift. Before halving, a stalled projection is tried
// again on M + h²K_d (substep): a taut chain's stretch then goes to its heavy end, not into folding its
// light links (a 1 g chain under 1 t stalled at every depth on M and tore). Halvings are counted in stats.csv's
// `warnings`; `iterations` counts the substeps' linear solves.
#include <array>
#include <memory>
#include <vector>

#include "affix/joints/joint_turns.hpp"
#include "affix/joints/rigid_jacobian.hpp"
#include "affix/model/drive_control.hpp"
#include "affix/model/simulator.hpp"
#include "affix/model/state_edits.hpp"
#include "affix/solvers/compliant/augmented_mass.hpp"
#include "affix/solvers/compliant/compliant_settings.hpp"
#include "affix/solvers/compliant/mixed_lcp.hpp"
#include "affix/solvers/compliant/drive_rows.hpp"
#include "affix/solvers/compliant/energy_line_check.hpp"
#include "affix/solvers/compliant/reduced_system.hpp"
#include "affix/solvers/rigid/collision_detection.hpp"
#include "affix/solvers/rigid/rigid_body.hpp"

namespace affix {

class CompliantSimulator final : public Simulator, public DriveControl {
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
  std::vector<ContactRecord> contact_records() const override { return records_; }
  // Edits between steps (compliant_edits.cpp; model/state_edits.hpp checks them).
  void set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) override;
  void apply_force(int body, const Vec3& force, const Vec3& point) override;
  void set_kinematic_target(int body, const BodyPose& target) override;
  void set_motor_speed(int joint, double speed) override;
  void set_servo_target(int joint, double target) override;

  const CompliantSettings& settings() const { return settings_; }
  /// The multipliers λ of the last step (N, N·m), in row order: the bilateral rows (a slack cable joint's
  /// axial row is not among them: its tension is axial_tension()).
  VecX multipliers() const;
  /// The tension (N, ≥ 0) of each model joint's slack axial row in the last step; 0 for other joints.
  std::vector<double> axial_tensions() const;
  /// Substeps so far whose curvature term the energy guard dropped (row_curvature.hpp).
  int curvature_dropped() const { return curvature_dropped_; }
  /// The force (N·m or N, ≥ 0) with which each model joint's limits pushed its coordinates back inside
  /// in the last step, summed over its limit rows; 0 for a joint without limits or away from them.
  std::vector<double> limit_forces() const;

 private:
  RigidPose rigid_pose(int body) const;
  /// J and φ at the current poses.
  void evaluate_rows();
  /// K̃ of every joint at the current poses for the last λ: rank-1 terms for the low-rank M̃⁻¹, else (or
  /// with `blocks`) each joint's K_.
  void evaluate_stiffness(bool blocks = false);
  void check_finite() const;
  /// λ at t = 0 from one plain solve, for the first step's K̃.
  void estimate_initial_multipliers();
  /// Moves the poses onto the rows (φ = −Cλ) by `iterations` Gauss–Newton steps on M⁻¹ (the step's:
  /// settings.projection_iterations), or with `weighted` on (M + h²K_d)⁻¹, each shortened by halving until
  /// it lowers the largest row error. False when it stalls: the rows still off by kProjectionTolerance after
  /// the last iteration and not a decade closer than the step left them.
  bool project_poses(double h, bool weighted, int iterations);
  std::vector<RigidBody> stepped_;       // substep(): the poses the step reached, before the projection
  std::vector<Vec6> projection_stiffness_;  // project_poses(): K_d per unknown (0 unweighted)
  double projection_error_ = 0.0;        // project_poses(): the largest rigid row error it ended with
  std::vector<char> sprung_;             // per unknown: a soft row holds it (project_poses weighs it by M)
  std::vector<Vec3> rotation_stiffness_; // substep(): per unknown, ∂τ/∂θ's column norms (added_inertia.hpp)
  bool weighable_ = false;               // some unknown is not sprung_
  /// One step of h from t (header comment); false when its projection stalled.
  bool substep(double t, double h);
  /// A substep of h at halving depth `depth`, restarted as two halves while its projection stalls.
  void advance(double t, double h, int depth);
  /// The curvature term's energy guard (row_curvature.hpp): whether the bodies and soft rows would end the
  /// substep at velocities v with more mechanical energy (step_energy.hpp) than `energy_before` plus the
  /// scene forces' work.
  bool made_energy(const VecX& v, double h, double energy_before, double shadow_before);
  VecX scene_impulse_;                   // per unknown: the scene forces' impulse h(f, τ) over the substep
  VecX landed_;                          // made_energy(): the joint rows at the end of the substep
  int curvature_dropped_ = 0;            // substeps the energy guard took back to the paper's rows
  /// The prescribed bodies' work on the moving bodies through the joint rows over the substep, −μ·J_d v_d.
  double prescribed_work() const;
  /// The work done on the moving bodies over the substep ending at v by the scene's forces, the prescribed
  /// bodies and the drives (μ·J_s v of each drive row).
  double external_work(const VecX& v) const;
  /// The energy line: the mechanical energy at t = 0 plus external_work() of every substep taken. The
  /// guard lends the truncation's allowance only below it (made_energy).
  double energy_line_ = 0.0;
  /// The energy line's divergence check after every step (energy_line_check.hpp).
  EnergyLineCheck energy_check_;
  /// Σ −m g·c over the moving bodies.
  double gravity_potential() const;
  /// Σ m|g| r_g over the moving bodies (energy_line_check.hpp).
  double body_scale() const;
  /// Relative to the energy: a gain below this is round-off, not the curvature term's.
  static constexpr double kEnergyTolerance = 1e-9;
  /// Relative to the kinetic energy: the gain per substep that the curvature term's own truncation makes
  /// and takes back (row_curvature.hpp, "Energy guard"); a larger gain is a failed prediction.
  static constexpr double kTruncationGain = 1e-3;


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
  std::vector<char> damped_joints_;      // per joint: gets constraint-space stability damping (stability_damping.hpp)
  std::vector<DriveRow> drives_;         // unbounded motors and servos (drive_rows.hpp): bilateral rows of J_
  std::vector<int> drive_joint_;         // per drive: its joint in joints_
  std::vector<double> drive_s_;          // per drive: its coordinate s at the current poses
  int drive_offset_ = 0;                 // the first drive row: the drives follow the joint rows
  /// A drive with `max_force` F: a box-bounded unilateral row of the mixed LCP, |λ| ≤ hF in its impulse
  /// units (mixed_lcp.hpp), kept out of J_. Its row at the current poses and its last impulse.
  struct BoundedDrive {
    DriveRow drive;
    int joint = 0;                 // in joints_
    std::array<int, 2> body{-1, -1};  // unknowns
    double phi = 0.0;              // φ = drive.error(s)
    std::array<Vec6, 2> J{Vec6::Zero(), Vec6::Zero()};
    double force = 0.0;            // λ (N·m or N) of the last solve: the next one's warm start hλ
  };
  std::vector<BoundedDrive> bounded_;
  /// The bounded drives as rows of the step (rates; S and Γ of Eq. 14–17 from the drive's C and d),
  /// appended to unilateral_ (compliant_unilateral.cpp).
  void append_drive_rows(double h);
  std::vector<RigidPose> next_pose_;     // per model body: its pose after a drift at its velocity (row_curvature.hpp)
  std::vector<Vec6> next_velocity_;      // per model body: that velocity (v, ω)
  VecX curvature_;                       // per joint row: d of row_curvature.hpp
  std::vector<Vec3> force_points_;       // rest-frame point of each force, relative to the body origin
  std::vector<AppliedForce> applied_;    // apply_force's, for the next step only (compliant_edits.cpp)
  /// apply_force's forces as impulses over the substep h, into scene_impulse_ (their work joins the
  /// energy line's, as a scene force's).
  void add_applied_impulses(double h);
  /// The rows, the angle references, the warm starts, the multipliers and the energy line from the
  /// bodies' current state: the constructor's start at t = 0, and set_state's restart.
  void restart_from_state();
  /// The drive rows of model joint `joint` (unbounded or bounded), null where its joint moves nothing.
  DriveRow* drive_of(int joint);
  ConstraintJacobian J_;
  VecX phi_, mu_, S_, Gamma_;
  ReducedSystem system_;
  std::vector<Mat6> M_, W_;              // per unknown: mass and the block of M̃⁻¹
  std::vector<PlacedStiffness> K_;       // per joint
  std::vector<PlacedTerm> terms_;
  MatX W_dense_;
  std::vector<RigidBody> saved_;         // project_poses(): the moving bodies before a trial correction
  // Unilateral rows of the current substep and where each comes from (compliant_unilateral.cpp).
  CollisionDetection detection_;
  MixedLcp lcp_;
  std::vector<RigidContact> contacts_;
  std::vector<UnilateralRow> unilateral_, projection_rows_;
  enum class RowKind { contact_normal, contact_tangent, limit, slack, slack_stop, drive };
  struct RowOrigin {
    RowKind kind;
    int index;  ///< contact index, the limit's slot (6·joint + 2·limit + side), or the bounded drive
  };
  std::vector<RowOrigin> origin_;
  struct WarmContact {
    int body1, body2;
    Vec3 local;     ///< the contact point in body1's rest axes, relative to its centre of mass
    double normal;  ///< λ_n (N·s)
    Vec3 friction;  ///< its share of its patch's friction force, world (N)
    double torsion; ///< its share of its patch's friction torque about the normal (N·m)
    double bounce;  ///< a restitution's shadow energy E_n (m²/s²) carried from a landing, else 0
    Vec3 normal2;   ///< body–body contacts: the normal in body 2's rest axes (persistence)
  };
  std::vector<WarmContact> warm_contacts_, next_warm_;
  /// A contact patch (compliant_unilateral.cpp, "Patch friction"): contacts_ of one pair with one normal,
  /// patch_members_[first_member … last_member); its rows from first_row: a normal row per point, then
  /// friction_rows (two tangents and, for a patch wider than a point, the torsion).
  struct ContactPatch {
    int first_member = 0, last_member = 0;
    int first_row = 0, normals = 0, friction_rows = 0;
    std::array<double, 3> twist{};  ///< per friction row: its torque about the normal per unit impulse (m)
  };
  std::vector<ContactPatch> patches_;
  std::vector<int> patch_members_, patch_of_;
  /// contacts_ into patches_ (greedy: same pair, normals within 10°).
  void group_patches();
  std::vector<Vec3> contact_local_;      // per contact of contacts_: its point in body 1's axes at the preview
  std::vector<Vec3> contact_normal2_;    // per contact: its normal in body 2's axes at the preview (body–body)
  std::vector<Vec3> contact_local2_;     // per contact: body 2's surface point in its axes at the preview (ground: world)
  std::vector<double> contact_allowed_;  // per contact: the overlap (m) its row lets the step end with, (1 − Γ)δ₀
  std::vector<double> contact_bounce_;   // per contact: its E_n carried to the next step (restitution), or 0
  /// Last step's pushing body–body contacts that FCL does not report at `preview` (touching, not
  /// overlapping) appended to contacts_ while their gap is below kPersistGap (compliant_unilateral.cpp,
  /// "Persistence").
  void persist_contacts(const std::vector<RigidPose>& preview);
  std::vector<double> limit_lambda_;     // per joint 6 slots (3 limits × 2 sides): the last λ
  // Continuous limited and driven angles (joints/joint_turns.hpp; compliant_turns.cpp).
  JointTurns turns_;                     // per joint of joints_
  /// Joint j's limit coordinates at the current poses, its angles continuous.
  RigidRows limit_coordinates(std::size_t j) const;
  /// Joint j's driven coordinate at the current poses, continuous.
  RigidRows drive_coordinate(std::size_t j, RigidCoordinate coordinate) const;
  /// The limited and driven angles' references at the current poses (t = 0, and each substep's end).
  void commit_turns();
  /// Before the drift over h at the velocities v (unknowns): each tracked angle expected to move by h ṡ.
  void lead_turns(const VecX& v, double h);
  /// A slack cable joint's axial row (joint.slack, compliant_unilateral.cpp): kept out of J_, a
  /// unilateral row U = −σJ_ax pulling with tension T ≥ 0; σ = ±1 makes σφ the stretch; and its stop in
  /// compression, U = σJ_ax pushing with F ≥ 0 at σφ = −r (model/slack_cable.hpp).
  struct SlackRow {
    bool slack = false;
    double sign = 1.0;             // σ
    double reach = 0.0;            // r (m)
    double stop_force = 0.0;       // F (N) of the last solve
    double compliance = 0.0, damping = 0.0;
    double phi = 0.0;              // φ = d·x₂ at the current poses
    std::array<Vec6, 2> J{Vec6::Zero(), Vec6::Zero()};
    double tension = 0.0;          // T (N) of the last solve
  };
  std::vector<SlackRow> slack_;          // per joint (of joints_)
  /// The slack rows as unilateral rows: of the step (`position` false: rates, S and Γ of Eq. 14–17) or of
  /// the projection (targets in m, S = C), appended to `rows`.
  void append_slack_rows(double h, bool position, std::vector<UnilateralRow>& rows, std::vector<RowOrigin>* origin);
  std::vector<ContactRecord> records_;
  int sweeps_ = 0;                       // PGS sweeps of the current step (all substeps)
  bool lcp_converged_ = true;            // every substep's PGS met its tolerance
  int active_contacts_ = 0;
  bool may_touch_ = false;               // the scene has a ground or two bodies that may collide

  // Unilateral rows (compliant_unilateral.cpp): contacts with friction, joint limits, slack cable rows.
  /// The step's unilateral rows into unilateral_: contacts found at the poses free flight with v_free
  /// reaches at t + h (`preview`), the limits near their bounds at the current poses, warm-started.
  /// `linearised`: the velocities that reach `preview` when not v_free (re-linearisation, solve_unilateral).
  void build_unilateral_rows(double h, const VecX& v_free, const std::vector<RigidPose>& preview,
                             const VecX* linearised = nullptr);
  /// The mixed LCP of the substep from v_free (v on return), its contact rows re-linearised at the poses the
  /// solution reaches while a pair ends deeper there than its row allowed (compliant_contact_gaps.cpp,
  /// "Re-linearisation"), at most kRelinearisations times.
  MixedLcpResult solve_unilateral(double h, const VecX& v_free, const VecX& b, const std::vector<RigidPose>& preview,
                                  VecX& v, bool dense);
  /// How far (m) a pair overlaps at the poses `end` beyond what its contact rows allowed; 0 when none does.
  double contact_shortfall(const std::vector<RigidPose>& end);
  std::vector<RigidContact> reached_contacts_;  // contact_shortfall(): FCL's overlaps at the poses reached
  std::vector<RigidPose> reached_;       // solve_unilateral(): the poses a solution reaches
  VecX v_lin_;                           // solve_unilateral(): the velocities the rows are re-linearised at
  static constexpr int kRelinearisations = 4;
  static constexpr double kShortfall = 2e-3;  // m: a pair ending this much deeper than its row allowed
  static constexpr double kGroundMargin = 1e-3;  // m: ground points this far above the plane at the preview are rows
  /// The limit rows near or past their bounds at the current poses, appended to `rows`; `position`:
  /// the projection's rows (targets in m or rad, not rates), else the step's (rates, over h).
  void append_limit_rows(double h, bool position, std::vector<UnilateralRow>& rows, std::vector<RowOrigin>* origin);
  /// The contacts at the current poses (with the step's margins) that the projection keeps from deepening,
  /// their points and normal in their bodies' axes (compliant_contact_gaps.cpp, "Contacts in the projection").
  void find_projection_contacts(double h);
  /// Their rows at the current poses, U Δ ≥ min(g₀, 0) − g, appended to `rows`.
  void append_projection_contact_rows(std::vector<UnilateralRow>& rows) const;
  struct HeldContact {
    int body1, body2;
    Vec3 local1, local2;  ///< each body's surface point in its axes (the ground's: world)
    Vec3 normal2;         ///< in body 2's axes (the ground's: world)
    double gap = 0.0;     ///< g₀ at the step's poses (m; negative: overlapping)
  };
  std::vector<HeldContact> held_contacts_;
  /// The largest amount by which a limit is passed at the current poses (m or rad), 0 when none is.
  double limit_violation() const;
  /// Keeps the step's λ of contacts and limits for the next step's warm start, and its contact records.
  void keep_unilateral_solution(double h);
  /// The velocity of a body over the current substep: an unknown's from `v`, a prescribed body's own.
  Vec6 body_velocity(int body, const VecX& v) const;
  struct Snapshot {
    std::vector<RigidBody> bodies;
    VecX mu;
    double mu_h = 0.0;
    std::vector<SlackRow> slack;
    double energy_line = 0.0;
    JointTurns turns;
  };
  std::vector<Snapshot> snapshots_;     // per halving depth: the state its substep starts from
  double mu_h_ = 0.0;                   // the h of the substep that produced mu_ (μ = hλ)
  double residual_ = 0.0;               // the last substep's relative residual of Eq. 3
  int halvings_ = 0, substeps_ = 0;     // of the current step
  static constexpr int kMaxHalvings = 6;  // down to h/64
  /// m (lengths) or cosines: a projection ending further from the rows than this has stalled.
  static constexpr double kProjectionTolerance = 1e-7;
  /// set_state's projection onto the joints (compliant_edits.cpp): iterations, and the largest joint gap
  /// (m) it may leave before the state is refused.
  static constexpr int kEditProjections = 100;
  static constexpr double kEditGap = 1e-6;
  /// Rows this stiff (the default `compliance` 10⁻¹²) are the rigid joints that halving keeps closed.
  static constexpr double kRigidCompliance = 1e-11;
  /// Joint j's gap at the current rows (m): the measure of joints.csv's `error` (io/joints_writer.hpp),
  /// read from φ (compliant_joint_gap.cpp).
  double joint_gap(std::size_t j) const;
  /// The largest |rows[r]| over the rigid rows.
  double rigid_error(const VecX& rows) const;
  int step_ = 0;
};

}  // namespace affix
