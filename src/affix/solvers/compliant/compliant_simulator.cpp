#include "affix/solvers/compliant/compliant_simulator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include "affix/error.hpp"
#include "affix/joints/geometric_stiffness.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/rotation.hpp"
#include "affix/model/slack_cable.hpp"
#include "affix/solvers/compliant/added_inertia.hpp"
#include "affix/solvers/compliant/row_curvature.hpp"
#include "affix/solvers/compliant/stability_damping.hpp"
#include "affix/solvers/compliant/step_energy.hpp"

namespace affix {
namespace {

/// What the compliant solver cannot run yet, as an InputError naming the JSON path; nothing when it can.
void refuse_unsupported(const Model& model) {
  const std::string file = model.file.string() + ": ";
  if (model.settings.integrator != Integrator::implicit_euler)
    throw InputError(file + "settings.integrator: the compliant solver integrates with \"implicit_euler\" only");
  const SolverCapabilities caps = CompliantSimulator::capabilities();
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const JointDef& j = model.joints[k].def;
    const std::string path = file + "joints[" + std::to_string(k) + "]";
    if (!caps.supports(j.type))
      throw InputError(path + ".type: the compliant solver has no " + std::string(to_string(j.type)) + " joint");
  }
}

/// c += h v, R ← exp(hω)R (rigid_body.hpp's drift) keeping the world angular momentum L = Iω: the
/// compliant step's state is the momenta p = M v (header), and a torque-free step that holds L while
/// I = R Ī Rᵀ turns conserves angular momentum exactly (the gyroscopic term ω × Iω is implicit in the
/// change of I), which holding ω would not.
void drift_at_constant_momentum(RigidBody& body, double h) {
  const Vec3 L = body.angular_momentum();
  const RigidDrift d = drift(body.c, body.q, body.v, body.omega, h);
  body.c = d.c;
  body.q = d.q;
  body.set_angular_momentum(L);
}

}  // namespace

void CompliantSimulator::check_model(const Model& model) {
  read_compliant_settings(model.settings, model.file);
  refuse_unsupported(model);
}

SolverCapabilities CompliantSimulator::capabilities() {
  SolverCapabilities c;
  c.prescribed_motion = true;
  c.state_edits = true;  // compliant_edits.cpp
  // Unilateral rows in a mixed LCP (mixed_lcp.hpp, compliant_unilateral.cpp): contacts found by FCL,
  // friction bounded by μλ_n, limits held inside their bounds. Not intersection-free: an overlap is
  // removed over the next step.
  c.ground_contact = true;
  c.body_contact = true;
  c.friction = true;
  c.joint_limits = true;
  c.joint_drives = true;  // drive_rows.hpp
  c.joints = {JointType::ball,      JointType::hinge,    JointType::universal, JointType::fixed,
              JointType::prismatic, JointType::slider,   JointType::distance,  JointType::cone_twist,
              JointType::cable};
  // The rows hold to one linearised step: the drift of a step is O(h²|ω|²r), corrected by −φ/h in the
  // next (Eq. 2), plus the compliance's stretch C·λ.
  c.joint_gap = 1e-3;
  return c;
}

CompliantSimulator::CompliantSimulator(std::shared_ptr<const Model> model)
    : model_(std::move(model)), detection_(*model_) {
  check_model(*model_);
  settings_ = read_compliant_settings(model_->settings, model_->file);
  bodies_ = rigid_bodies(*model_);
  const int n_bodies = static_cast<int>(model_->bodies.size());
  prescribed_.resize(n_bodies);
  for (int i = 0; i < n_bodies; ++i)
    if (bodies_[i].prescribed) prescribed_[i] = PrescribedMotion(model_->bodies[i]);
  unknown_of_.assign(n_bodies, -1);
  for (int i = 0; i < n_bodies; ++i)
    if (!model_->bodies[i].is_dirichlet()) unknown_of_[i] = static_cast<int>(moving_.size()), moving_.push_back(i);
  prescribed_v_.assign(n_bodies, Vec3::Zero());
  prescribed_w_.assign(n_bodies, Vec3::Zero());
  const auto unknown = [&](int body) { return body < 0 ? -1 : unknown_of_[body]; };
  for (std::size_t k = 0; k < model_->joints.size(); ++k) {
    const ModelJoint& mj = model_->joints[k];
    RigidJoint rj = rigid_joint(mj, model_->bodies);
    if ((rj.count == 0 && rj.limit_count == 0) || (unknown(mj.body1) < 0 && unknown(mj.body2) < 0)) continue;
    // A slack cable joint's axial row (its first) is a unilateral row, not one of J_'s (SlackRow).
    SlackRow slack;
    if (mj.def.type == JointType::cable && settings_.slack_cables) {
      // σ and the stop's reach r from the bodies' origins at t = 0 (model/slack_cable.hpp); r = 0: rigid.
      const auto origin = [&](int b) { return b >= 0 ? std::optional<Vec3>(model_->bodies[b].position) : std::nullopt; };
      const SlackCable cable = slack_cable(mj.def.anchor, mj.def.axis.normalized(), *origin(mj.body1), origin(mj.body2));
      slack.slack = cable.reach > 0.0;
      slack.sign = cable.sign;
      slack.reach = cable.reach;
    }
    JointSlot slot;
    slot.offset = J_.rows;
    slot.count = rj.count - (slack.slack ? 1 : 0);
    slot.body = {unknown(mj.body1), unknown(mj.body2)};
    J_.slots.push_back(slot);
    J_.rows += slot.count;
    if (mj.def.type == JointType::cable) {
      // Rows d·x₂, d·y₂, d·z₂, x₁·y₂, x₁·z₂, y₁·z₂ (rigid_jacobian.hpp): axial, shear ×2, bending ×2, torsion.
      const CableDof* dof[] = {&mj.def.axial, &mj.def.shear, &mj.def.shear, &mj.def.bending, &mj.def.bending,
                               &mj.def.torsion};
      for (int r = slack.slack ? 1 : 0; r < 6; ++r)
        compliance_.push_back(1.0 / dof[r]->stiffness), damping_.push_back(dof[r]->damping);
      if (slack.slack) {
        slack.compliance = 1.0 / mj.def.axial.stiffness;
        slack.damping = mj.def.axial.damping;
      }
    } else {
      const double C = mj.def.stiffness ? 1.0 / *mj.def.stiffness : settings_.compliance;
      compliance_.insert(compliance_.end(), rj.count, C);
      damping_.insert(damping_.end(), rj.count, 0.0);
    }
    joints_.push_back(rj);
    joint_index_.push_back(static_cast<int>(k));
    slack_.push_back(slack);
  }
  // Motors and servos (drive_rows.hpp): an unbounded one is a bilateral row after the joint rows, on its
  // joint's bodies; one with max_force a box-bounded row of the mixed LCP (BoundedDrive).
  drive_offset_ = J_.rows;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const std::optional<DriveRow> drive = drive_row(model_->joints[joint_index_[j]].def, joints_[j]);
    if (!drive) continue;
    if (drive->bounded()) {
      BoundedDrive bd;
      bd.drive = *drive;
      bd.joint = static_cast<int>(j);
      bd.body = J_.slots[j].body;
      bounded_.push_back(bd);
      continue;
    }
    JointSlot slot = J_.slots[j];
    slot.offset = J_.rows++;
    slot.count = 1;
    J_.slots.push_back(slot);
    compliance_.push_back(drive->compliance(settings_.compliance));
    damping_.push_back(drive->own_damping());
    drives_.push_back(*drive);
    drive_joint_.push_back(static_cast<int>(j));
  }
  drive_s_.assign(drives_.size(), 0.0);
  J_.bodies = static_cast<int>(moving_.size());
  // The bodies that a soft row holds (compliance above kSoftCompliance, not a drive): the projection's
  // fallback metric (substep) leaves them at M. The projection leaves soft rows out (their stretch is state),
  // so weighing such a body's turn by its rigid rows' tension sends the correction into its springs: on the
  // Fig. 8 cable at h = 0.05 and 0.1 that bent the bending rows by up to 1.6 kJ in a projection.
  sprung_.assign(moving_.size(), 0);
  for (std::size_t j = 0; j < joints_.size(); ++j)
    for (int r = 0; r < J_.slots[j].count; ++r)
      if (compliance_[J_.slots[j].offset + r] > kSoftCompliance)
        for (int u : J_.slots[j].body)
          if (u >= 0) sprung_[u] = 1;
  weighable_ = std::any_of(sprung_.begin(), sprung_.end(), [](char s) { return !s; });
  damped_joints_ = stability_damped_joints(J_, static_cast<int>(joints_.size()), compliance_, settings_.anchored_damping);
  if (settings_.stabilization == Stabilization::automatic)
    damped_joints_ = soft_joints(J_, damped_joints_, compliance_);  // stability_damping.hpp, "Which bodies"
  // Constraint-space damping acts along J only (Andrews §5.4: what lies in J's null space is not damped),
  // through Γ = h/(h + Cb′): on rigid rows (C ≤ kRigidCompliance) Cb′ ≪ h, and the step is the undamped
  // one. A ball or hinge chain at h = 0.1 s then diverges as with "none" (examples/compliant/
  // mass_ratio_chain.json tore at step 1); the paper itself stabilises such chains by inertial damping.
  if (settings_.stabilization == Stabilization::constraint_damping && J_.rows > 0 &&
      std::all_of(compliance_.begin(), compliance_.end(), [](double C) { return C <= kRigidCompliance; }))
    std::cerr << "affix: warning: " << model_->file.string()
              << ": settings.compliant.stabilization: \"constraint_damping\" damps a joint row only through its "
                 "compliance, and every row of this scene is rigid (compliance <= 1e-11): the step runs undamped, "
                 "as with \"none\"; \"inertial_damping\" (the default) or \"geometric_stiffness\" stabilise rigid "
                 "joints (README, settings.compliant)\n";
  // Inertial damping on a body that a soft row holds damps its absolute turn, the swing of a cable itself
  // (stability_damping.hpp, "Which bodies": 99.9 % of a 100-link cable pendulum's swing in 20 s).
  if (settings_.stabilization == Stabilization::inertial_damping &&
      std::any_of(sprung_.begin(), sprung_.end(), [](char s) { return s; }))
    std::cerr << "affix: warning: " << model_->file.string()
              << ": settings.compliant.stabilization: \"inertial_damping\" (the default) damps the absolute turn of "
                 "the bodies that soft joint rows hold (a cable's bending or torsion below 1e4), which takes the "
                 "swing of a cable pendulum; \"auto\" damps them through those rows instead (README, settings.compliant)\n";
  limit_lambda_.assign(6 * joints_.size(), 0.0);
  may_touch_ = model_->ground.has_value();
  for (int i = 0; i < n_bodies && !may_touch_; ++i)
    for (int k = i + 1; k < n_bodies && !may_touch_; ++k)
      may_touch_ = (unknown_of_[i] >= 0 || unknown_of_[k] >= 0) && model_->may_collide(i, k);
  J_.blocks.resize(J_.slots.size());
  K_.resize(joints_.size());
  for (std::size_t j = 0; j < joints_.size(); ++j) K_[j].body = J_.slots[j].body;
  for (const ForceDef& f : model_->forces) {
    const ModelBody& b = model_->bodies[f.body_index];
    force_points_.push_back(b.rotation.transpose() * (f.point.value_or(b.position) - b.position));
  }
  phi_.setZero(J_.rows);
  curvature_.setZero(J_.rows);
  next_pose_.resize(n_bodies);
  next_velocity_.resize(n_bodies);
  mu_.setZero(J_.rows);
  S_.setZero(J_.rows);
  Gamma_.setOnes(J_.rows);
  M_.resize(moving_.size());
  W_.resize(moving_.size());
  system_.set_structure(J_, settings_.dense_rows);
  turns_ = JointTurns(joints_.size());
  restart_from_state();  // the rows, the turns, λ and the energy line at t = 0 (compliant_edits.cpp)
}

void CompliantSimulator::estimate_initial_multipliers() {
  // K̃ and K_d read the last step's λ; the first step has none, and a straight chain under a heavy load
  // would take its first step with no stiffness against transverse motion at all. One plain solve
  // (M̃ = M, gravity and the forces at t = 0, the prescribed bodies at rest) gives λ at the start.
  const double h = model_->settings.dt;
  const int n = static_cast<int>(moving_.size());
  VecX free(6 * n);
  for (int u = 0; u < n; ++u) {
    const RigidBody& b = bodies_[moving_[u]];
    W_[u].setZero();
    W_[u].topLeftCorner<3, 3>() = Mat3::Identity() / b.mass;
    W_[u].bottomRightCorner<3, 3>() = b.world_inertia().inverse();
    free.segment<3>(6 * u) = b.mass * (b.v + h * model_->settings.gravity);
    free.segment<3>(6 * u + 3) = b.angular_momentum();
  }
  VecX v_free(6 * n);
  for (int u = 0; u < n; ++u) v_free.segment<6>(6 * u) = W_[u] * free.segment<6>(6 * u);
  VecX b = -phi_ / h;
  VecX Jv = VecX::Zero(J_.rows);
  J_.multiply_add(v_free, Jv);
  b -= Jv;
  S_ = Eigen::Map<const VecX>(compliance_.data(), J_.rows) / (h * h);
  if (J_.rows > 0 && system_.factorize(J_, W_, S_)) mu_ = system_.solve(b);
}

RigidPose CompliantSimulator::rigid_pose(int body) const {
  if (body < 0) return {};
  return bodies_[body].pose();
}

void CompliantSimulator::evaluate_rows() {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j];
    const RigidRows rows = rigid_rows(rj, rigid_pose(rj.body1), rigid_pose(rj.body2));
    SlackRow& slack = slack_[j];
    if (!slack.slack) {
      phi_.segment(J_.slots[j].offset, rj.count) = rows.value;
      J_.blocks[j][0] = rows.J1;
      J_.blocks[j][1] = rows.J2;
      continue;
    }
    const int m = rj.count - 1;  // the axial row (the first) apart
    phi_.segment(J_.slots[j].offset, m) = rows.value.tail(m);
    J_.blocks[j][0] = rows.J1.bottomRows(m);
    slack.phi = rows.value[0];
    slack.J[0] = rows.J1.row(0).transpose();
    if (rows.J2.rows() > 0) {
      J_.blocks[j][1] = rows.J2.bottomRows(m);
      slack.J[1] = rows.J2.row(0).transpose();
    } else {
      J_.blocks[j][1].resize(0, 6);
    }
  }
  for (std::size_t d = 0; d < drives_.size(); ++d) {
    const RigidRows rows = drive_coordinate(drive_joint_[d], drives_[d].coordinate);
    drive_s_[d] = rows.value[0];
    phi_[drive_offset_ + d] = drives_[d].error(rows.value[0]);
    J_.blocks[joints_.size() + d][0] = rows.J1;
    J_.blocks[joints_.size() + d][1] = rows.J2;
  }
  for (BoundedDrive& bd : bounded_) {
    const RigidRows rows = drive_coordinate(bd.joint, bd.drive.coordinate);
    bd.phi = bd.drive.error(rows.value[0]);
    bd.J[0] = rows.J1.row(0).transpose();
    bd.J[1] = rows.J2.rows() > 0 ? Vec6(rows.J2.row(0).transpose()) : Vec6::Zero();
  }
}

void CompliantSimulator::evaluate_stiffness(bool blocks) {
  const double h = mu_h_;  // μ = hλ of the (sub)step that produced it
  terms_.clear();
  const bool low_rank = !blocks && settings_.stabilization == Stabilization::geometric_stiffness &&
                        settings_.inverse == AugmentedInverse::low_rank;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j];
    RigidVector lambda(rj.count);
    if (slack_[j].slack) {  // the axial row's λ = −σT (SlackRow), then the joint's bilateral rows
      lambda[0] = -slack_[j].sign * (slack_[j].tension - slack_[j].stop_force);
      lambda.tail(rj.count - 1) = mu_.segment(J_.slots[j].offset, rj.count - 1) / h;
    } else {
      lambda = mu_.segment(J_.slots[j].offset, rj.count) / h;
    }
    const RigidPose p1 = rigid_pose(rj.body1), p2 = rigid_pose(rj.body2);
    if (low_rank) {
      std::vector<RankOneTerm> local;
      geometric_stiffness_terms(rj, p1, p2, lambda, local);
      for (const RankOneTerm& t : local) terms_.push_back({J_.slots[j].body, t});
    } else {
      K_[j].K = geometric_stiffness(rj, p1, p2, lambda);
    }
  }
}

StepStats CompliantSimulator::step() {
  const auto start = std::chrono::steady_clock::now();
  halvings_ = substeps_ = sweeps_ = 0;
  lcp_converged_ = true;
  advance(time(), model_->settings.dt, 0);
  applied_.clear();  // apply_force's forces act for one step (compliant_edits.cpp)
  ++step_;
  const int n = static_cast<int>(moving_.size());
  const Vec3 gravity = model_->settings.gravity;
  energy_check_.check(mechanical_energy(bodies_, moving_, gravity, phi_, compliance_, drive_offset_),
                      gravity_shadow(bodies_, moving_, nullptr, gravity, model_->settings.dt), gravity_potential(),
                      energy_line_);
  StepStats stats;
  stats.step = step_;
  stats.time = time();
  stats.iterations = sweeps_;  // PGS sweeps over the unilateral rows, all substeps (0: none)
  stats.hit_iteration_cap = !lcp_converged_;
  stats.warnings = halvings_;
  stats.residual = residual_;
  stats.active_contacts = active_contacts_;
  stats.min_distance = std::numeric_limits<double>::infinity();
  if (may_touch_) {  // the deepest overlap at the end of the step
    std::vector<RigidPose> now(bodies_.size());
    for (std::size_t i = 0; i < bodies_.size(); ++i) now[i] = bodies_[i].pose();
    detection_.detect(now, contacts_, 0.0);
    for (const RigidContact& c : contacts_)
      if (c.depth > 0.0) {
        if (c.depth > stats.max_penetration) stats.overlap_body1 = c.body1, stats.overlap_body2 = c.body2;
        stats.max_penetration = std::max(stats.max_penetration, c.depth);
        stats.min_distance = -stats.max_penetration;
      }
    stats.overlap_depth = stats.max_penetration;  // the contact depth check (io/contact_depth.hpp)
  }
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    stats.max_joint_error = std::max(stats.max_joint_error, joint_gap(j));  // joints.csv's error (joint_gap.cpp)
    if (slack_[j].slack) stats.potential_energy += 0.5 * slack_[j].compliance * slack_[j].tension * slack_[j].tension;
  }
  for (int u = 0; u < n; ++u) {
    const RigidBody& body = bodies_[moving_[u]];
    stats.kinetic_energy += body.kinetic_energy();
    stats.potential_energy -= body.mass * model_->settings.gravity.dot(body.c);
  }
  // A stiff row's spring holds ½Cλ²; a soft row's ½φ²/C of its stretch, as its λ also carries its damping
  // force (step_energy.hpp).
  for (int r = 0; r < J_.rows; ++r)
    stats.potential_energy += r < drive_offset_ && compliance_[r] > kSoftCompliance
                                  ? 0.5 * phi_[r] * phi_[r] / compliance_[r]
                                  : 0.5 * compliance_[r] * (mu_[r] / mu_h_) * (mu_[r] / mu_h_);
  for (const BoundedDrive& bd : bounded_)  // a bounded servo's spring (a motor's rigid C stores ~nothing)
    stats.potential_energy += 0.5 * bd.drive.compliance(settings_.compliance) * bd.force * bd.force;
  stats.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return stats;
}

void CompliantSimulator::advance(double t, double h, int depth) {
  if (static_cast<int>(snapshots_.size()) <= depth) snapshots_.resize(depth + 1);
  Snapshot& s = snapshots_[depth];
  s.bodies = bodies_;
  s.mu = mu_;
  s.mu_h = mu_h_;
  s.slack = slack_;
  s.energy_line = energy_line_;
  s.turns = turns_;
  if (substep(t, h) || depth == kMaxHalvings) return;
  // The projection stalled (header): again from the start of this substep, as two halves.
  bodies_ = s.bodies;
  mu_ = s.mu;
  mu_h_ = s.mu_h;
  slack_ = s.slack;
  energy_line_ = s.energy_line;
  turns_ = s.turns;
  evaluate_rows();
  ++halvings_;
  advance(t, 0.5 * h, depth + 1);
  advance(t + 0.5 * h, 0.5 * h, depth + 1);
}

bool CompliantSimulator::substep(double t, double h) {
  ++substeps_;
  const int n = static_cast<int>(moving_.size());
  const Vec3 gravity = model_->settings.gravity;
  // Prescribed bodies: their velocity over this step, from their poses at t and t + h.
  std::vector<std::pair<int, RigidPose>> prescribed_next;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (unknown_of_[i] >= 0) continue;
    prescribed_[i].twist(t, h, prescribed_v_[i], prescribed_w_[i]);
    prescribed_next.emplace_back(static_cast<int>(i), prescribed_[i].at(t + h));
  }
  // The energy guard (row_curvature.hpp, "Energy guard"): a step that ends with more energy than it began
  // with plus the work of gravity, the scene's forces, the prescribed bodies and the drives (external_work)
  // made it itself.
  const bool guarded = settings_.curvature;
  const double energy_before = guarded ? mechanical_energy(bodies_, moving_, gravity, phi_, compliance_, drive_offset_) : 0.0;
  const double shadow_before = guarded ? gravity_shadow(bodies_, moving_, nullptr, gravity, h) : 0.0;
  // Momenta plus impulses of gravity and the scene's forces: p + h f.
  VecX free(6 * n);
  for (int u = 0; u < n; ++u) {
    const RigidBody& b = bodies_[moving_[u]];
    M_[u].setZero();
    M_[u].topLeftCorner<3, 3>() = b.mass * Mat3::Identity();
    M_[u].bottomRightCorner<3, 3>() = b.world_inertia();
    free.segment<3>(6 * u) = b.mass * (b.v + h * model_->settings.gravity);
    free.segment<3>(6 * u + 3) = b.angular_momentum();
  }
  scene_impulse_.setZero(6 * n);
  for (std::size_t k = 0; k < model_->forces.size(); ++k) {
    const ForceDef& f = model_->forces[k];
    const int u = unknown_of_[f.body_index];
    if (u < 0 || !(f.start <= t && t < f.end)) continue;
    const RigidBody& b = bodies_[f.body_index];
    const Vec3 lever = b.rotation() * (force_points_[k] - b.rest_center);
    scene_impulse_.segment<3>(6 * u) += h * f.force;
    scene_impulse_.segment<3>(6 * u + 3) += h * (lever.cross(f.force) + f.torque);
  }
  add_applied_impulses(h);  // apply_force's (compliant_edits.cpp)
  free += scene_impulse_;
  // M̃⁻¹, S and Γ by the stabilization (header comment).
  const double alpha = settings_.alpha;
  // A row's own damping b (a cable DOF's) makes it a spring–damper, Eq. 14–17 (stability_damping.hpp).
  for (int r = 0; r < J_.rows; ++r) {
    const double C = compliance_[r], b = damping_[r];
    S_[r] = C / (h * (h + C * b));
    Gamma_[r] = h / (h + C * b);
  }
  const bool dense = settings_.stabilization == Stabilization::geometric_stiffness;
  if (settings_.stabilization != Stabilization::none) evaluate_stiffness();
  std::vector<Vec6> Kd;
  const Stabilization stabilization = settings_.stabilization;
  const bool automatic = stabilization == Stabilization::automatic;
  if (stabilization == Stabilization::constraint_damping || automatic) Kd = diagonal_stiffness(K_, n);
  std::vector<BodyStiffness> S;  // K_d as each body's matrices (stability_damping.hpp, "Rotation-consistent B")
  std::vector<Mat3> turning(n);  // the inertia each body turns with (stability_damping.hpp, "Pinned bodies")
  if (stabilization == Stabilization::inertial_damping || automatic) {
    S = body_stiffness(K_, n);
    std::vector<char> moving_partner(n, 0);
    for (std::size_t j = 0; j < joints_.size(); ++j) {
      const JointSlot& s = J_.slots[j];
      if (s.body[0] >= 0 && s.body[1] >= 0) moving_partner[s.body[0]] = moving_partner[s.body[1]] = 1;
    }
    for (int u = 0; u < n; ++u) turning[u] = M_[u].bottomRightCorner<3, 3>();
    for (std::size_t j = 0; j < joints_.size(); ++j) {
      const JointSlot& s = J_.slots[j];
      for (int side = 0; side < 2; ++side)
        if (s.body[side] >= 0 && s.body[1 - side] < 0 && !moving_partner[s.body[side]])
          turning[s.body[side]] += pinned_inertia(M_[s.body[side]](0, 0), J_.blocks[j][side]);
    }
  }
  // The bodies that constraint damping reaches through soft rows get added inertia instead of B
  // (added_inertia.hpp): their turns against the rigid rows' tension, out of b′'s reach, slowed to Eq. 10's
  // bound, with the added inertia's momentum ΔI ω kept, so that it takes no energy.
  const bool added = stabilization == Stabilization::constraint_damping || automatic;
  if (added) rotational_stiffness(K_, n, rotation_stiffness_);
  for (int u = 0; u < n; ++u) {
    Mat6 Mt = M_[u];
    // "auto" damps a body that a soft row holds through that row (constraint space), every other inertially.
    if (stabilization == Stabilization::inertial_damping || (automatic && !sprung_[u])) {  // M̃ = M + hB, Eq. 13
      Mt.bottomRightCorner<3, 3>() += h * stabilizing_damping(turning[u], S[u].angular, h, alpha);
      if (settings_.translational_damping)
        Mt.topLeftCorner<3, 3>() += h * stabilizing_damping(M_[u].topLeftCorner<3, 3>(), S[u].linear, h, alpha);
    }
    if (added && sprung_[u])
      for (int k = 3; k < 6; ++k) {
        const double inertia = added_inertia(M_[u](k, k), rotation_stiffness_[u][k - 3], h, alpha);
        Mt(k, k) += inertia;
        free[6 * u + k] += inertia * bodies_[moving_[u]].omega[k - 3];  // (I + ΔI)ω: momentum, not damping
      }
    W_[u].setZero();
    W_[u].topLeftCorner<3, 3>() = Mt.topLeftCorner<3, 3>().inverse();
    W_[u].bottomRightCorner<3, 3>() = Mt.bottomRightCorner<3, 3>().inverse();
  }
  if (stabilization == Stabilization::constraint_damping || automatic)
    constraint_space_damping(J_, damped_joints_, W_, Kd, compliance_, damping_, h, alpha, S_, Gamma_);
  if (dense) {
    if (settings_.inverse == AugmentedInverse::full_rank) {
      W_dense_ = augmented_inverse_full_rank(M_, K_, h);
    } else {
      std::vector<Mat6> Minv(n);
      for (int u = 0; u < n; ++u) Minv[u] = W_[u];
      augmented_inverse_low_rank(Minv, terms_, h, W_dense_);
    }
  }
  // The reduced system (Eq. 3): A μ = b, b = rhs − J v_free, v_free = M̃⁻¹(p + h f).
  VecX rhs = -Gamma_.cwiseProduct(phi_) / h;
  for (std::size_t d = 0; d < drives_.size(); ++d) rhs[drive_offset_ + d] += drives_[d].target_rate(drive_s_[d], h);
  for (std::size_t k = 0; k < J_.slots.size(); ++k) {  // the prescribed side's velocity (joints, then drives)
    const JointSlot& s = J_.slots[k];
    const RigidJoint& rj = joints_[k < joints_.size() ? k : drive_joint_[k - joints_.size()]];
    const int body[2] = {rj.body1, rj.body2};
    for (int side = 0; side < 2; ++side)
      if (s.body[side] < 0 && body[side] >= 0) {
        Vec6 vd;
        vd << prescribed_v_[body[side]], prescribed_w_[body[side]];
        rhs.segment(s.offset, s.count) -= J_.blocks[k][side] * vd;
      }
  }
  if (settings_.curvature) {  // the rows' second-order change over the step (row_curvature.hpp)
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const RigidBody& body = bodies_[i];
      if (unknown_of_[i] < 0) continue;
      const RigidDrift d = drift(body.c, body.q, body.v, body.omega, h);
      next_pose_[i] = {d.c, d.q.toRotationMatrix()};
      next_velocity_[i] << body.v, body.omega;
    }
    for (const auto& [i, pose] : prescribed_next) {
      next_pose_[i] = pose;
      next_velocity_[i] << prescribed_v_[i], prescribed_w_[i];
    }
    row_curvature(joints_, J_, phi_, next_pose_, next_velocity_, h, curvature_);
    rhs.head(drive_offset_) -= Gamma_.head(drive_offset_).cwiseProduct(curvature_.head(drive_offset_)) / h;
  }
  VecX v_free(6 * n);
  if (dense) {
    v_free = W_dense_ * free;
  } else {
    for (int u = 0; u < n; ++u) v_free.segment<6>(6 * u) = W_[u] * free.segment<6>(6 * u);
  }
  VecX Jv = VecX::Zero(J_.rows);
  J_.multiply_add(v_free, Jv);
  VecX b = rhs - Jv;
  const bool factorized = dense ? system_.factorize_dense(J_, W_dense_, S_) : system_.factorize(J_, W_, S_);
  if (!factorized)
    throw SimulationError("the reduced system (Andrews Eq. 3) is singular or not positive definite; give the joints "
                          "compliance (settings.compliant.compliance) or use a stabilization without K̃");
  // Unilateral rows (contacts found at the free-flight poses of t + h, limits) and the mixed LCP.
  std::vector<RigidPose> preview(bodies_.size());
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const int u = unknown_of_[i];
    if (u < 0) continue;
    const RigidDrift d = drift(bodies_[i].c, bodies_[i].q, v_free.segment<3>(6 * u), v_free.segment<3>(6 * u + 3), h);
    preview[i] = {d.c, d.q.toRotationMatrix()};
  }
  for (const auto& [i, pose] : prescribed_next) preview[i] = pose;
  build_unilateral_rows(h, v_free, preview);
  append_drive_rows(h);
  VecX v;
  MixedLcpResult lcp = solve_unilateral(h, v_free, b, preview, v, dense);
  sweeps_ += lcp.sweeps;
  if (guarded && J_.rows > 0 && made_energy(v, h, energy_before, shadow_before)) {
    // The curvature term made energy (row_curvature.hpp, "Energy guard"): the step again with the rows
    // linearised at the start (Eq. 3 as the paper writes it), from the same factorisation.
    b.head(drive_offset_) += Gamma_.head(drive_offset_).cwiseProduct(curvature_.head(drive_offset_)) / h;
    lcp = solve_unilateral(h, v_free, b, preview, v, dense);
    sweeps_ += lcp.sweeps;
    ++curvature_dropped_;
    const double step_h = model_->settings.dt;
    if (h < step_h && made_energy(v, h, energy_before, shadow_before)) {
      // The paper's rows made energy too. A halved substep (advance) starts from the whole step's gap φ,
      // and −φ/h at h/64 turns a stiff row's gap into 64× the velocity, 4096× the kinetic energy ½m(φ/h)²:
      // a 1 kg and a 1000 kg body on distance joints gained 6·10⁵ J in one h/64 substep from a 2 cm gap.
      // The stiff rows then close their gap at the step's rate, −Γφ/h_step, and the projection
      // (project_poses) takes the rest; a soft row's −Γφ/h is its spring and stays.
      for (int r = 0; r < drive_offset_; ++r)
        if (compliance_[r] <= kSoftCompliance) b[r] += Gamma_[r] * phi_[r] * (1.0 / h - 1.0 / step_h);
      lcp = solve_unilateral(h, v_free, b, preview, v, dense);
      sweeps_ += lcp.sweeps;
    }
  }
  lcp_converged_ = lcp_converged_ && lcp.converged;
  energy_line_ += external_work(v);
  keep_unilateral_solution(h);
  mu_h_ = h;
  // The residual of the rows' velocity equations, Jv₊ + Sμ = b + J v_free (relative).
  VecX residual = S_.cwiseProduct(mu_) - b - Jv;
  J_.multiply_add(v, residual);
  residual_ = J_.rows ? residual.cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff()) : 0.0;
  // New momenta M v₊ and poses; the limited and driven angles are expected to turn by h ṡ₊.
  lead_turns(v, h);
  for (int u = 0; u < n; ++u) {
    RigidBody& body = bodies_[moving_[u]];
    body.v = v.segment<3>(6 * u);
    body.omega = v.segment<3>(6 * u + 3);  // L = I ω₊ at the step's start rotation, held by the drift
    drift_at_constant_momentum(body, h);
  }
  for (const auto& [i, pose] : prescribed_next) {
    RigidBody& body = bodies_[i];
    body.c = pose.c;
    body.q = Quat(pose.R).normalized();
    body.v = prescribed_v_[i];
    body.omega = prescribed_w_[i];
  }
  check_finite();
  // The projection (project_poses) on M; where it stalls, again from the step's poses on M + h²K_d
  // (project_poses, "weighted"). That one is kept only if it closes the rigid rows and does not lift the
  // mechanical energy above both the step's and the energy line: a projection moves heavy bodies under
  // K_d, and positions moved at kept velocities are energy the step did not account for.
  stepped_ = bodies_;
  bool projected = project_poses(h, false, settings_.projection_iterations);
  if (!projected && weighable_) {
    std::swap(stepped_, bodies_);  // stepped_: the projection on M
    evaluate_rows();
    const double stepped = mechanical_energy(bodies_, moving_, gravity, phi_, compliance_, drive_offset_);
    projected = project_poses(h, true, settings_.projection_iterations);  // ends with the rows at its poses
    const double weighted = mechanical_energy(bodies_, moving_, gravity, phi_, compliance_, drive_offset_);
    const double ceiling = std::max(stepped, energy_line_) + kEnergyTolerance * (1.0 + std::abs(stepped));
    if (!(projection_error_ < kProjectionTolerance) || weighted > ceiling) {
      std::swap(stepped_, bodies_);
      projected = false;
    }
  }
  evaluate_rows();
  commit_turns();
  return projected;
}

bool CompliantSimulator::made_energy(const VecX& v, double h, double energy_before, double shadow_before) {
  // The joint rows where v takes the bodies: φ₊ = φ + hJv + d(v) (row_curvature.hpp at v).
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const int u = unknown_of_[i];
    if (u < 0) continue;
    const RigidDrift d = drift(bodies_[i].c, bodies_[i].q, v.segment<3>(6 * u), v.segment<3>(6 * u + 3), h);
    next_pose_[i] = {d.c, d.q.toRotationMatrix()};
    next_velocity_[i] = v.segment<6>(6 * u);
  }
  landed_.setZero(J_.rows);
  row_curvature(joints_, J_, phi_, next_pose_, next_velocity_, h, landed_);
  // The curvature term predicts d at the start velocities; where the step then turns the bodies far
  // from them (light links whipping under a heavy load) d(v₊) ≠ d(u) and the step lands further off
  // its stiff rows than the paper's would, whose gap is d(v₊): that gap, turned into velocity by the
  // next step's −φ/h, is where the energy came from on a ball chain of 0.2 kg links under 15 t (1.6·10⁵ J
  // in one h/64 substep). Such a step is taken back like one that made energy.
  const double paper_gap = rigid_error(landed_);
  landed_ += phi_;
  J_.multiply_add(h * v, landed_);
  if (rigid_error(landed_) > paper_gap + kProjectionTolerance) return true;
  const double work = external_work(v);
  const double after = mechanical_energy_after(bodies_, moving_, v, h, model_->settings.gravity, landed_, compliance_,
                                               drive_offset_);
  double kinetic = 0.0;
  for (int i : moving_) kinetic += bodies_[i].kinetic_energy();
  // The truncation's allowance is lent only out of what earlier substeps lost: below the energy line (the
  // start plus all the work done on the bodies) by at least the gain. Allowed afresh every substep, 10⁻³ of
  // the kinetic energy accumulated: a universal chain of 0.2 kg links under 15 t at h = 0.1 gained
  // 1.4·10⁴ J over 20 s by steps that each stayed inside it.
  const double allowance = std::clamp(energy_line_ - energy_before, 0.0, kTruncationGain * kinetic);
  // Shadow energies (step_energy.hpp, gravity_shadow): E alone falls by ½hm g·(v₊ − v) on the way down and
  // rises by as much on the way up, and a pendulum released from 90° at h = 1/60 had a third of its
  // steps' curvature terms taken back for that rise, landing them h²ω²L/2 off the rows; the projection then
  // moved them back at kept velocities and the swing lost 60 % of its energy in 20 s.
  const double shadow_after = gravity_shadow(bodies_, moving_, &v, model_->settings.gravity, h);
  return after + shadow_after >
         energy_before + shadow_before + work + allowance + kEnergyTolerance * (1.0 + std::abs(energy_before));
}

double CompliantSimulator::gravity_potential() const {
  double u = 0.0;
  for (int i : moving_) u -= bodies_[i].mass * model_->settings.gravity.dot(bodies_[i].c);
  return u;
}

double CompliantSimulator::body_scale() const {
  // Σ m|g| r_g, r_g = √(tr Ī / 2m) the radius of gyration (energy_line_check.hpp).
  double a = 0.0;
  for (int i : moving_) {
    const RigidBody& b = bodies_[i];
    a += b.mass * model_->settings.gravity.norm() * std::sqrt(b.inertia.trace() / (2.0 * b.mass));
  }
  return a;
}

double CompliantSimulator::external_work(const VecX& v) const {
  // The scene's forces over the step at v (gravity is in the energy), the prescribed bodies' through the
  // joint rows, and the drives' (motors and servos): each drive row's impulse times its rate, μ·J_s v₊
  // (the impulse's work on the moving bodies; implicit Euler's ΔE of a row's impulse is at most that).
  double work = scene_impulse_.dot(v) + prescribed_work();
  const auto rate = [&](const std::array<int, 2>& body, const auto& J0, const auto& J1) {
    double r = 0.0;
    if (body[0] >= 0) r += J0.dot(v.segment<6>(6 * body[0]));
    if (body[1] >= 0) r += J1.dot(v.segment<6>(6 * body[1]));
    return r;
  };
  for (std::size_t d = 0; d < drives_.size(); ++d) {
    const std::size_t k = joints_.size() + d;
    const JointSlot& s = J_.slots[k];
    const Vec6 J0 = s.body[0] >= 0 ? Vec6(J_.blocks[k][0].row(0).transpose()) : Vec6::Zero();
    const Vec6 J1 = s.body[1] >= 0 ? Vec6(J_.blocks[k][1].row(0).transpose()) : Vec6::Zero();
    work += mu_[s.offset] * rate(s.body, J0, J1);
  }
  for (std::size_t r = 0; r < unilateral_.size(); ++r)
    if (origin_[r].kind == RowKind::drive) work += unilateral_[r].lambda * rate(unilateral_[r].body, unilateral_[r].J[0], unilateral_[r].J[1]);
  return work;
}

double CompliantSimulator::prescribed_work() const {
  // A joint row with a prescribed side: J₁v₁ + J_d v_d = … (the rows' right-hand side). Its impulse μ
  // does no work on the pair (an ideal joint), so what it does on the moving side, μ·J₁v₁, is
  // −μ·J_d v_d: the prescribed body's work on the bodies over the substep (a slewing jib's on its cable).
  double work = 0.0;
  for (std::size_t k = 0; k < joints_.size(); ++k) {
    const JointSlot& s = J_.slots[k];
    const int body[2] = {joints_[k].body1, joints_[k].body2};
    for (int side = 0; side < 2; ++side)
      if (s.body[side] < 0 && body[side] >= 0 && !(prescribed_v_[body[side]].isZero(0.0) &&
                                                   prescribed_w_[body[side]].isZero(0.0))) {
        Vec6 vd;
        vd << prescribed_v_[body[side]], prescribed_w_[body[side]];
        work -= mu_.segment(s.offset, s.count).dot(J_.blocks[k][side] * vd);
      }
  }
  return work;
}

double CompliantSimulator::rigid_error(const VecX& rows) const {
  double worst = 0.0;
  for (int r = 0; r < drive_offset_; ++r)  // the joint rows (a motor's velocity row is no gap)
    if (compliance_[r] <= kRigidCompliance) worst = std::max(worst, std::abs(rows[r]));
  return worst;
}

bool CompliantSimulator::project_poses(double h, bool weighted, int iterations) {
  // Post-stabilization (not Andrews 2017): the step keeps the rows to first order, J v₊ = −φ/h − …, and
  // leaves a drift of order h²|ω|²r. Each iteration solves (J M⁻¹ Jᵀ + C) ν = −φ − Cλ at the new poses
  // and moves them by Δ = M⁻¹Jᵀν (c += Δ_v, R ← exp([Δ_ω]ₓ)R): a Gauss–Newton step towards the
  // compliant rows' own target φ = −Cλ, the mass-weighted nearest correction. Velocities are left alone.
  // Limits near their bounds join as unilateral rows U Δ ≥ ε − φ (compliant_unilateral.cpp), solved with
  // the joints by the same mixed LCP as the step (mixed_lcp.hpp), so that no step ends past a bound.
  projection_error_ = 0.0;
  const int n = static_cast<int>(moving_.size());
  const bool limited = std::any_of(joints_.begin(), joints_.end(), [](const RigidJoint& j) { return j.limit_count > 0; });
  const bool slack = std::any_of(slack_.begin(), slack_.end(), [](const SlackRow& r) { return r.slack; });
  if (J_.rows == 0 && !limited && !slack) return true;
  // A soft row (compliance above kSoftCompliance: a cable's bending, a joint given a low `stiffness`) is
  // a spring whose stretch is part of the state, not drift, and its λ holds damping (Eq. 14) that −Cλ
  // would misread as stretch: it is left out (an infinite compliance here, so its ν is 0).
  constexpr double kLeftOut = 1e30;
  VecX target = -Eigen::Map<const VecX>(compliance_.data(), J_.rows).cwiseProduct(mu_) / h;
  VecX S = Eigen::Map<const VecX>(compliance_.data(), J_.rows);
  // So are the motors and servos (velocity rows, PD springs), except in the weighted projection: there a
  // drive's coordinate is held where the step left it (its own compliance against the move, target φ at
  // the start). Left free, M + h²K_d turned a servo-held 500 kg arm under a 15 t chain instead of the
  // links, and the servo's impulse times a rate the step never had, μ·J_s v₊, raised the energy line
  // (external_work) by 4·10⁶ J over 20 s.
  const auto drive = [&](int r) { return r >= drive_offset_ && r < drive_offset_ + static_cast<int>(drives_.size()); };
  for (int r = 0; r < J_.rows; ++r)
    if (S[r] > kSoftCompliance || (drive(r) && !weighted)) S[r] = kLeftOut;
  const auto row_error = [&](VecX& rows) {  // target − φ, the left-out rows zeroed; and its largest entry
    rows = target - phi_;
    double worst = limited ? limit_violation() : 0.0;
    for (int r = 0; r < J_.rows; ++r)
      if (S[r] == kLeftOut) rows[r] = 0.0;
      else if (!drive(r)) worst = std::max(worst, std::abs(rows[r]));
    return worst;
  };
  double first = -1.0;  // the largest rigid row error the step left
  VecX rhs, after, delta, nu;
  // The metric of the projection: M + h²K_d, K_d the diagonalised geometric stiffness (Eq. 12) of the step's
  // λ at the new poses — the Hessian of the step's Lagrangian, as a Newton (SQP) step on the positions would
  // weigh the moves. With M alone a light link is turned for nothing even where its joints' tension makes
  // turning it cost: on a straight chain of 1 g links under a 1 t block (10⁶:1) the projection folded the
  // links instead of moving the block, overshot, stalled at every depth of halving and tore the chain at
  // h = 0.05 and 0.1 (examples/compliant/mass_ratio_chain.json). Under K_d turning a link by θ costs
  // ½h²k θ², and a stretch along the chain goes to the block, as the chain's own stiffness sends it.
  std::vector<Vec6>& Kd = projection_stiffness_;
  if (weighted) {
    evaluate_stiffness(true);
    Kd = diagonal_stiffness(K_, n);
    for (int u = 0; u < n; ++u)
      if (sprung_[u]) Kd[u].setZero();
  } else {
    Kd.assign(n, Vec6::Zero());
  }
  // The contacts at the step's poses: the projection must not press a pair deeper (compliant_contact_gaps.cpp,
  // "Contacts in the projection").
  if (iterations > 0) find_projection_contacts(h);
  for (int it = 0; it < iterations; ++it) {
    evaluate_rows();
    if (it == 0 && weighted)
      for (int r = drive_offset_; r < J_.rows; ++r)
        if (drive(r)) target[r] = phi_[r];
    const double before = row_error(rhs);
    projection_rows_.clear();
    if (limited) append_limit_rows(h, true, projection_rows_, nullptr);
    append_slack_rows(h, true, projection_rows_, nullptr);
    append_projection_contact_rows(projection_rows_);
    const bool pushed = std::any_of(projection_rows_.begin(), projection_rows_.end(),
                                    [](const UnilateralRow& r) { return r.c > 0.0; });
    if (before < 1e-14 && !pushed) return true;
    if (first < 0.0) first = rigid_error(rhs);
    for (int u = 0; u < n; ++u) {
      const RigidBody& b = bodies_[moving_[u]];
      const Vec6 k = h * h * Kd[u];
      W_[u].setZero();
      W_[u].topLeftCorner<3, 3>() = (b.mass * Mat3::Identity() + Mat3(k.head<3>().asDiagonal())).inverse();
      W_[u].bottomRightCorner<3, 3>() = (b.world_inertia() + Mat3(k.tail<3>().asDiagonal())).inverse();
    }
    if (!system_.factorize(J_, W_, S)) {  // redundant rigid rows: keep the step's poses
      projection_error_ = std::numeric_limits<double>::infinity();
      return true;
    }
    delta.setZero(6 * n);
    lcp_.solve(J_, system_, W_, nullptr, rhs, projection_rows_, delta, nu, settings_.pgs_iterations, 1e-12);
    saved_.resize(n);
    for (int u = 0; u < n; ++u) saved_[u] = bodies_[moving_[u]];
    for (double alpha = 1.0;; alpha *= 0.5) {
      for (int u = 0; u < n; ++u) {
        RigidBody& b = bodies_[moving_[u]];
        b = saved_[u];
        const Vec6 d = alpha * delta.segment<6>(6 * u);
        const Vec3 omega_body = b.rotation().transpose() * b.omega;  // the spin (and L) travels with the body
        b.c += d.head<3>();
        b.q = (Quat(rotation_from_rotation_vector(d.tail<3>())) * b.q).normalized();
        b.omega = b.rotation() * omega_body;
      }
      evaluate_rows();
      if (row_error(after) < before || alpha < 1.0 / 64) break;
    }
  }
  evaluate_rows();
  VecX rest;
  row_error(rest);
  // Stalled: a rigid row (header) still off by more than the tolerance and not even a decade closer than
  // the step left it. Compliant rows are left to the step: on the crane's stiff cable (C = 10⁻¹⁰…10⁻⁶) the
  // projection ends off by ~10⁻⁴ at every h down to h/64, so halving for them costs and does not help.
  const double last = rigid_error(rest);
  projection_error_ = last;
  return iterations == 0 || last < kProjectionTolerance || last < 0.1 * first;
}

void CompliantSimulator::check_finite() const {
  constexpr double kRunaway = 1e12;  // m/s or rad/s: far beyond anything a scene means
  for (int i : moving_) {
    const RigidBody& b = bodies_[i];
    const bool finite = b.c.allFinite() && b.q.coeffs().allFinite() && b.v.allFinite() && b.omega.allFinite();
    if (!finite || b.v.norm() > kRunaway || b.omega.norm() > kRunaway)
      throw SimulationError("body '" + excerpt(model_->bodies[i].name) + "' diverged (state not finite or runaway)");
  }
}

VecX CompliantSimulator::multipliers() const { return mu_ / mu_h_; }

std::vector<double> CompliantSimulator::axial_tensions() const {
  std::vector<double> tension(model_->joints.size(), 0.0);
  for (std::size_t j = 0; j < joints_.size(); ++j)
    if (slack_[j].slack) tension[joint_index_[j]] = slack_[j].tension;
  return tension;
}

std::vector<double> CompliantSimulator::limit_forces() const {
  std::vector<double> force(model_->joints.size(), 0.0);
  for (std::size_t j = 0; j < joints_.size(); ++j)
    for (int slot = 0; slot < 6; ++slot) force[joint_index_[j]] += limit_lambda_[6 * j + slot];
  return force;
}

std::vector<BodyPose> CompliantSimulator::poses() const {
  return body_poses(bodies_, static_cast<int>(bodies_.size()));
}

std::vector<BodyVelocity> CompliantSimulator::velocities() const {
  return body_velocities(bodies_, static_cast<int>(bodies_.size()));
}

std::vector<JointRecord> CompliantSimulator::joint_records() const { return affix::joint_records(*model_, poses()); }

}  // namespace affix
