#include "affix/solvers/ipc/ipc_simulator.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>

#include "affix/body/kinematic_motion.hpp"
#include "affix/energy/generalized_force.hpp"
#include "affix/energy/inertia.hpp"
#include "affix/error.hpp"
#include "affix/geometry/aabb.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/rotation.hpp"
#include "affix/solvers/ipc/islands.hpp"

namespace affix {
namespace {

/// Closer than this fraction of d̂ at the start, a contact's barrier is so steep (its curvature grows
/// as d̂²/d²) that the Newton system loses its positive definiteness to round-off; the start also
/// stores a barrier energy κ·b(d) that would launch the bodies apart.
constexpr double kMinStartGap = 1e-3;

/// Bodies that may touch, and dynamic bodies and the ground, must start at least kMinStartGap·d̂
/// apart (those that overlap or sit below the ground are refused before, with their own message).
/// At the stacked state q (`what` names it in the message), or at the bodies' q0 when q is empty.
void refuse_bodies_too_close(const Model& scene, double dhat, const std::vector<AffineBody>& bodies,
                             IncrementalPotential& potential, VecX q0 = {}, const std::string& what = "") {
  const DofLayout& layout = potential.layout();
  if (q0.size() == 0) {
    q0.resize(layout.total());
    for (int i = 0; i < layout.body_count(); ++i) body_segment(layout, q0, i) = bodies[i].q0;
  }
  potential.update_contact_candidates(q0, nullptr);
  const ContactSummary s = potential.contact_summary(q0);
  if (!(s.min_distance < kMinStartGap * dhat)) return;
  const auto [i, j] = s.closest;
  const std::string other = j < 0 ? "the ground" : "body '" + excerpt(bodies[j].name) + "'";
  char gaps[96];
  std::snprintf(gaps, sizeof gaps, " starts %.3g m from ", s.min_distance);
  std::string message = (what.empty() ? scene.file.string() : what) + ": bodies[" + std::to_string(i) + "]: body '" +
                        excerpt(bodies[i].name) + "'" + gaps + other;
  std::snprintf(gaps, sizeof gaps, "; expected at least %g × settings.ipc.dhat = %.3g m", kMinStartGap,
                kMinStartGap * dhat);
  throw InputError(message + gaps);
}

/// Σμλ over every lagged contact, ground and body–body: how much friction the lag point allows.
double total_friction_bound(const StepConstants& c) {
  double total = 0.0;
  for (const auto& body : c.friction)
    for (const GroundFrictionContact& f : body) total += f.mu_lambda;
  for (const PairFriction& f : c.pair_friction) total += f.mu_lambda;
  return total;
}

/// Per body, the one fixed or kinematic body it is joined to through dynamic bodies (its driver), or
/// −1 when there is none or more than one.
std::vector<int> joint_drivers(const std::vector<AffineBody>& bodies, const JointModel& joints) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int i) { return find_root(parent, i); };
  for (const auto& [a, b] : joints.body_pairs) {
    if (bodies[a].is_dirichlet() && bodies[b].is_dirichlet()) continue;
    parent[root(a)] = root(b);
  }
  std::vector<int> driver_of_root(n, -1);  // −2: several
  for (int i = 0; i < n; ++i) {
    if (!bodies[i].is_dirichlet()) continue;
    int& d = driver_of_root[root(i)];
    d = d == -1 ? i : -2;
  }
  std::vector<int> drivers(n, -1);
  for (int i = 0; i < n; ++i)
    if (!bodies[i].is_dirichlet()) drivers[i] = std::max(driver_of_root[root(i)], -1);
  return drivers;
}

double scene_size(const std::vector<AffineBody>& bodies) {
  Aabb box;
  for (const AffineBody& b : bodies)
    for (const Vec3& x_bar : b.mesh->vertices) box.extend(world_point(b.q0, x_bar));
  return std::max(box.diagonal().norm(), 1e-6);
}

}  // namespace

IpcSimulator::IpcSimulator(std::shared_ptr<const Model> model)
    : model_(std::move(model)),
      settings_(model_->settings),
      ipc_settings_(read_ipc_settings(settings_, model_->file)),
      forces_(model_->forces),
      bodies_(affine_bodies(*model_)),
      scene_body_count_(static_cast<int>(bodies_.size())),
      layout_(affine_layout(bodies_)),
      joints_(build_joint_model(*model_, bodies_, layout_, ipc_settings_.dhat)),
      potential_(bodies_, model_->ground, ipc_settings_.dhat, joints_),
      joint_space_(bodies_, joints_, ipc_settings_.linear_solver),
      drivers_(joint_drivers(bodies_, joints_)) {
  const Model& scene = *model_;
  kinematic_targets_.resize(bodies_.size());
  if (!joints_.turn_limits.empty()) {  // multi-turn hinge ranges aimed at t = 0 (joint_model.hpp)
    VecX q0(layout_.total());
    for (int i = 0; i < layout_.body_count(); ++i) body_segment(layout_, q0, i) = bodies_[i].q0;
    aim_turn_limits(joints_, bodies_, layout_, q0);
  }
  // check_model's test, on the solver's own potential.
  refuse_bodies_too_close(scene, ipc_settings_.dhat, bodies_, potential_);

  double total_mass = 0.0;
  int dynamic = 0;
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    const AffineBody& b = bodies_[i];
    gravity_loads_.push_back(gravity_force(b, settings_.gravity));
    body_radii_.push_back(b.bounding_radius);
    history_.push_back({b.q0, b.qdot0, b.q0, b.qdot0, false});
    // κ's scale is the scene bodies' mass: light virtual links would lower it and let contacts sink.
    if (b.is_dirichlet() || i >= scene_body_count_) continue;
    total_mass += b.mass, ++dynamic;
  }
  average_mass_ = dynamic > 0 ? total_mass / dynamic : 1.0;
  for (const AffineBody& b : bodies_) damped_ = damped_ || b.damping > 0.0;
  if (scene.ground) damped_ = damped_ || scene.ground->damping > 0.0;
  for (const JointLimit& l : joints_.limits) damped_ = damped_ || l.damping > 0.0;
  for (const std::string& name : joint_space_.redundant_joints())
    std::cerr << "affix: warning: " << scene.file.string() << ": joint '" << excerpt(name)
              << "' has constraint rows that depend on other joints' (a closed loop); they were dropped\n";
  if (ipc_settings_.linear_solver == JointSolverKind::tree && !joint_space_.empty() &&
      joint_space_.method() != JointSolverKind::tree) {
    throw InputError(scene.file.string() + ": settings.ipc.linear_solver: \"tree\" needs the linear joints to "
                     "form chains or trees, but " + joint_space_.structure());
  }
  force_points_ = force_rest_points(forces_, bodies_);

  newton_options_.h = settings_.dt;
  newton_options_.tolerance = ipc_settings_.tolerance;
  newton_options_.max_iterations = ipc_settings_.max_iterations;
  scene_size_ = scene_size(bodies_);
  newton_options_.dhat = ipc_settings_.dhat;
  newton_options_.adaptive_kappa = !ipc_settings_.kappa.has_value();
  // κ bounds from the integrator's steady β (BDF-2's first step is an Euler step).
  const double beta = settings_.integrator == Integrator::bdf2 ? 4.0 / 9.0 : 1.0;
  newton_options_.kappa_bounds = barrier_stiffness_bounds(
      average_mass_, beta * settings_.dt * settings_.dt, ipc_settings_.dhat);
}

void IpcSimulator::check_model(const Model& model) {
  const double dhat = read_ipc_settings(model.settings, model.file).dhat;  // validates settings.ipc
  // The scene's bodies alone: joints add no contact (virtual links collide with nothing).
  const std::vector<AffineBody> bodies = affine_bodies(model);
  const JointModel no_joints;
  IncrementalPotential potential(bodies, model.ground, dhat, no_joints);
  refuse_bodies_too_close(model, dhat, bodies, potential);
}

StepConstants IpcSimulator::step_constants(const VecX& q_start,
                                           const std::vector<Prediction>& predictions) const {
  const double h = settings_.dt, t = time();
  StepConstants c;
  c.beta_h2 = predictions.empty() ? h * h : predictions.front().beta * h * h;
  c.friction_eps = ipc_settings_.epsv * h;
  c.loads = gravity_loads_;  // and the forces active at the step's start t
  add_external_loads(c.loads, forces_, force_points_, t,
                     [&](int i) { return state_matrix(body_segment(layout_, q_start, i)); });
  for (const Prediction& p : predictions) c.q_tilde.push_back(p.q_tilde);
  return c;
}

StepStats IpcSimulator::step() {
  const auto wall_start = std::chrono::steady_clock::now();
  const double h = settings_.dt;
  const int n = static_cast<int>(bodies_.size());
  const double t_next = (step_ + 1) * h;

  VecX q_start(layout_.total()), q(layout_.total());
  std::vector<Prediction> predictions;
  for (int i = 0; i < n; ++i) {
    body_segment(layout_, q_start, i) = history_[i].q;
    predictions.push_back(predict(settings_.integrator, history_[i], h));
  }
  aim_turn_limits(joints_, bodies_, layout_, q_start);  // multi-turn hinge ranges (joint_model.hpp)
  // Every body shares one β (all bodies use the same integrator and history length).
  StepConstants c = step_constants(q_start, predictions);
  // apply_force's forces, held for this step only: f = J(x̄)ᵀF, like a scene force.
  for (const AppliedForce& f : applied_forces_) c.loads[f.body] += point_force(f.rest_point, f.force);
  applied_forces_.clear();
  q = q_start;
  move_dirichlet_bodies(q, t_next);
  joint_space_.update_targets(q);
  move_towards_rigid_prediction(q, c);

  if (ipc_settings_.kappa) {
    c.kappa = *ipc_settings_.kappa;
  } else if (kappa_ == 0.0) {
    // First step: balance the barrier against the rest of the potential (IPC). Later steps keep κ,
    // which only the doubling rule raises: changing κ while a contact is compressed would change its
    // stored energy and so inject or remove energy.
    VecX barrier_grad, rest_grad;
    potential_.barrier_balance_gradients(q, c, barrier_grad, rest_grad);
    c.kappa = initial_barrier_stiffness(barrier_grad, rest_grad, newton_options_.kappa_bounds);
  } else {
    c.kappa = kappa_;
  }

  if (damped_) {  // Rayleigh damping: barrier Hessians frozen at qⁿ (Chen 2022 §5.1)
    potential_.update_contact_candidates(q_start, nullptr);
    c.damping = potential_.damping_hessian(q_start, c.kappa);
    for (int i = 0; i < n; ++i) {
      const VelocityMap v = velocity_map(settings_.integrator, history_[i], h);
      c.damping_gamma = v.gamma;  // the same for every body (one integrator, one history length)
      c.damping_offset.push_back(v.offset);
    }
  }

  StepStats stats;
  if (step_ == 0) stats.warnings += joint_space_.redundant_rows();
  // Lagged friction (Chen 2022 §6.1): solve with normal forces and tangent frames frozen at the lag
  // point, then re-lag at the solution and solve again, up to friction_iterations times, stopping once
  // the total friction bound Σμλ changes by less than 1%.
  double previous_bound = -1.0;
  for (int lag = 0; lag < ipc_settings_.friction_iterations; ++lag) {
    const VecX& q_lag = lag == 0 ? q_start : q;
    c.friction = potential_.lag_friction(q_lag, q_start, c.kappa);
    potential_.update_contact_candidates(q_lag, nullptr);
    c.pair_friction = potential_.lag_pair_friction(q_lag, q_start, c.kappa);
    const double bound = total_friction_bound(c);
    if (lag > 0 && std::abs(bound - previous_bound) <= 1e-2 * std::max(previous_bound, 1e-300)) break;
    previous_bound = bound;
    newton_options_.take_first_step = lag == 0;  // a re-lag starts where the loads already acted
    const NewtonResult r =
        newton_solve(potential_, c, q, bodies_, body_radii_, newton_options_, linear_solver_, joint_space_);
    stats.iterations += r.iterations;
    stats.residual = r.residual;
    stats.hit_iteration_cap = stats.hit_iteration_cap || !r.converged;
    stats.line_search_evaluations += r.line_search_evaluations;
    stats.warnings += r.warnings;
  }
  check_finite(q);
  kappa_ = c.kappa;

  for (int i = 0; i < n; ++i) advance(settings_.integrator, history_[i], body_segment(layout_, q, i), h);
  ++step_;

  const ContactSummary contacts = potential_.contact_summary(q);
  stats.step = step_;
  stats.time = time();
  stats.min_distance = contacts.min_distance;
  stats.active_contacts = contacts.active;
  stats.barrier_stiffness = c.kappa;
  stats.max_joint_error = max_joint_error(joints_, layout_, q);
  for (int i = 0; i < n; ++i) stats.kinetic_energy += kinetic_energy(bodies_[i].mass_matrix, history_[i].qdot);
  stats.potential_energy = potential_.potential_energy(q, gravity_loads_, c.kappa);
  stats.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

// Fixed and kinematic bodies jump to their prescribed state. They are not unknowns, so nothing can
// push back: a prescribed motion that would sweep through another body within the step is refused
// rather than allowed to intersect (CCD against the others held at qⁿ). Dynamic bodies jointed to
// one moving kinematic body are carried along rigidly with it, so that their joint rows and limits
// with it hold at the solve's start (Newton then finds how they really move).
void IpcSimulator::move_dirichlet_bodies(VecX& q, double t_next) {
  const int n = static_cast<int>(bodies_.size());
  VecX dq = VecX::Zero(layout_.total());
  bool moving = false;
  for (int i = 0; i < n; ++i) {
    if (!bodies_[i].is_dirichlet()) continue;
    body_segment(layout_, dq, i) =
        prescribed_state(bodies_[i], t_next, kinematic_targets_[i]) - body_segment(layout_, q, i);
    moving = moving || body_segment(layout_, dq, i).squaredNorm() > 0.0;
  }
  if (!moving) return;
  for (int i = 0; i < n; ++i) {
    const int k = drivers_[i];
    if (k < 0 || body_segment(layout_, dq, k).squaredNorm() == 0.0) continue;
    // x ↦ A' A⁻¹ (x − p) + p' maps the driver's old pose to its new one; apply it to body i.
    const Vec12 old_k = body_segment(layout_, q, k), new_k = old_k + body_segment(layout_, dq, k);
    const Mat3 T = state_matrix(new_k) * state_matrix(old_k).inverse();
    const Vec12 qi = body_segment(layout_, q, i);
    body_segment(layout_, dq, i) = affine_state(T * (state_translation(qi) - state_translation(old_k)) +
                                           state_translation(new_k),
                                       T * state_matrix(qi)) - qi;
  }
  potential_.update_contact_candidates(q, &dq);
  const std::vector<double> alpha = potential_.max_steps(q, dq, IncrementalPotential::BodyMask(n, 1));
  for (int i = 0; i < n; ++i) {
    if (alpha[i] >= 1.0 || body_segment(layout_, dq, i).squaredNorm() == 0.0) continue;
    const int driver = bodies_[i].is_dirichlet() ? i : drivers_[i];
    throw SimulationError("the prescribed motion of body '" + excerpt(bodies_[driver].name) +
                          "' would run into another body within the step");
  }
  q += dq;
}

// Newton from qⁿ zig-zags in the curved valley of the stiff orthogonality potential: its first step
// follows the inertia term to q̃, whose A is a linearised (stretched) rotation, and the penalty throws
// it back. Starting from the rigid prediction (p̃, polar(Ã)) removes most of that. The move there is
// CCD-filtered along the straight line from qⁿ, island by island, so the start is intersection-free.
void IpcSimulator::move_towards_rigid_prediction(VecX& q, const StepConstants& c) {
  const int n = static_cast<int>(bodies_.size());
  VecX dq = VecX::Zero(layout_.total());
  for (int i = 0; i < n; ++i) {
    if (bodies_[i].is_dirichlet()) continue;
    const Vec12& q_tilde = c.q_tilde[i];
    body_segment(layout_, dq, i) =
        affine_state(state_translation(q_tilde), polar_rotation(state_matrix(q_tilde))) - body_segment(layout_, q, i);
  }
  // Jointed bodies start from qⁿ, which satisfies their joints; their independent rigid predictions
  // would not, and restoring the joints from there cost more Newton iterations than the predictor
  // saves (a 100-link chain: 7.7 instead of 3.0 per step, with a mass-weighted projection).
  for (const JointRow& row : joints_.rows)
    for (const auto& [dof, coefficient] : row.terms) body_segment(layout_, dq, layout_.body_of(dof)).setZero();
  // Nothing to move (every dynamic body jointed, a ragdoll or a chain): no sweep, no CCD.
  if (dq.isZero(0.0)) return;
  safe_island_move(potential_, bodies_, q, dq);
}

void IpcSimulator::check_finite(const VecX& q) const {
  const int n = static_cast<int>(bodies_.size());
  for (int i = 0; i < n; ++i) {
    const auto qi = body_segment(layout_, q, i);
    // A body that left any sane range (1e6 × the scene size away) has run away.
    if (!qi.allFinite() || qi.head<3>().norm() > 1e6 * scene_size_)
      throw SimulationError("body '" + excerpt(bodies_[i].name) +
                            "' diverged (state not finite or runaway)");
  }
}

std::vector<BodyPose> IpcSimulator::poses() const {
  std::vector<BodyPose> out;
  for (int i = 0; i < scene_body_count_; ++i) out.push_back(affine_pose(history_[i].q));
  return out;
}

std::vector<Vec12> IpcSimulator::state_velocities() const {
  std::vector<Vec12> out;
  for (int i = 0; i < scene_body_count_; ++i) out.push_back(history_[i].qdot);
  return out;
}

std::vector<BodyVelocity> IpcSimulator::velocities() const {
  std::vector<BodyVelocity> out;
  for (int i = 0; i < scene_body_count_; ++i) out.push_back(affine_velocity(history_[i].q, history_[i].qdot));
  return out;
}

std::vector<JointRecord> IpcSimulator::joint_records() const { return affix::joint_records(*model_, poses()); }

void IpcSimulator::set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) {
  check_state(*model_, this->poses(), poses, velocities);
  const int n = static_cast<int>(bodies_.size());
  VecX q(layout_.total()), qdot(layout_.total());
  for (int i = 0; i < scene_body_count_; ++i) {
    body_segment(layout_, q, i) = affine_state(poses[i].p, poses[i].A);
    // q̇ = (ṗ, Ȧ) in q's layout, since q is linear in (p, A).
    body_segment(layout_, qdot, i) = affine_state(velocities[i].linear, velocities[i].A_dot);
  }
  // A virtual link follows the first scene body it is joined to, rigidly: x ↦ A'A⁻¹(x − p) + p'.
  for (int v = scene_body_count_; v < n; ++v) {
    int owner = -1;
    for (const auto& [a, b] : joints_.body_pairs) {
      const int other = a == v ? b : b == v ? a : -1;
      if (other >= 0 && other < scene_body_count_) owner = owner < 0 ? other : std::min(owner, other);
    }
    const Vec12& qv = history_[v].q;
    if (owner < 0) {
      body_segment(layout_, q, v) = qv, body_segment(layout_, qdot, v) = history_[v].qdot;
      continue;
    }
    const Vec12& old_o = history_[owner].q;
    const Vec12 new_o = body_segment(layout_, q, owner);
    const Mat3 T = state_matrix(new_o) * state_matrix(old_o).inverse();
    const Vec3 p_v = T * (state_translation(qv) - state_translation(old_o)) + state_translation(new_o);
    const Mat3 A_v = T * state_matrix(qv);
    body_segment(layout_, q, v) = affine_state(p_v, A_v);
    // Its velocity as a point set carried by the owner: ẋ = ṗₒ + M(x − pₒ) with M = ȦₒAₒ⁻¹.
    const Vec12 qdot_o = body_segment(layout_, qdot, owner);
    const Mat3 M = state_matrix(qdot_o) * state_matrix(new_o).inverse();
    body_segment(layout_, qdot, v) =
        affine_state(state_translation(qdot_o) + M * (p_v - state_translation(new_o)), M * A_v);
  }
  try {
    refuse_bodies_too_close(*model_, ipc_settings_.dhat, bodies_, potential_, q, "set_state");
  } catch (const InputError&) {
    VecX q_now(layout_.total());  // the contact candidates back at the state that stays
    for (int i = 0; i < n; ++i) body_segment(layout_, q_now, i) = history_[i].q;
    potential_.update_contact_candidates(q_now, nullptr);
    throw;
  }
  for (int i = 0; i < n; ++i) {
    const Vec12 qi = body_segment(layout_, q, i), qdot_i = body_segment(layout_, qdot, i);
    history_[i] = {qi, qdot_i, qi, qdot_i, false};
  }
}

void IpcSimulator::apply_force(int body, const Vec3& force, const Vec3& point) {
  const std::vector<BodyPose> now = poses();
  check_body_index(*model_, body, "apply_force");
  applied_forces_.push_back(applied_force(*model_, body, now[body], force, point));
}

void IpcSimulator::set_kinematic_target(int body, const BodyPose& target) {
  check_kinematic_target(*model_, body, target);
  kinematic_targets_[body] = affine_state(target.p, target.A);
}

SolverCapabilities IpcSimulator::capabilities() {
  SolverCapabilities c;
  c.ground_contact = c.body_contact = c.friction = c.intersection_free = true;
  c.prescribed_motion = c.joint_limits = c.bdf2 = c.damping = c.state_edits = true;
  c.joints = {JointType::ball,      JointType::hinge,      JointType::prismatic, JointType::universal,
              JointType::fixed,     JointType::cone_twist, JointType::distance,  JointType::slider};
  return c;
}

}  // namespace affix
