#include "affix/solvers/impulse/impulse_simulator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/solvers/impulse/body_splitting.hpp"

namespace affix {
namespace {

/// Halvings of a joint-correction step whose full length raises the violation.
constexpr int kMaxHalvings = 6;
/// Joint-correction iterations in a row that do not halve the violation before the exact Newton matrix
/// takes over (exact_newton.hpp), and the most such factorisations per step.
constexpr int kStallsBeforeRefresh = 3;
constexpr int kMaxRefreshes = 4;
/// How often a step may be halved when its joint correction does not converge (header): h/2⁶ at most.
constexpr int kMaxHalvingDepth = 6;
/// Steps without a further halving before a step is tried at one level coarser.
constexpr int kCalmSteps = 8;

/// A joint's error from its rows' values: the distance its point rows leave between the two anchors
/// (ball, hinge, universal, fixed, cone-twist: the 3 point rows; prismatic and a slider on a line: the
/// 2 rows off the line), and the largest of its other rows (m or rad).
double joint_error(const RigidJoint& joint, const RigidVector& value) {
  const JointType t = joint.type;
  const int point_rows = t == JointType::ball || t == JointType::cone_twist || t == JointType::hinge ||
                                 t == JointType::universal || t == JointType::fixed
                             ? 3
                         : t == JointType::prismatic || (t == JointType::slider && joint.count == 2) ? 2
                                                                                                    : 0;
  double error = point_rows > 0 ? value.head(point_rows).norm() : 0.0;
  if (joint.count > point_rows) error = std::max(error, value.tail(joint.count - point_rows).cwiseAbs().maxCoeff());
  return error;
}

double scene_size(const Model& model) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const ModelBody& b : model.bodies) {
    lo = lo.cwiseMin(b.position - Vec3::Constant(b.bounding_radius));
    hi = hi.cwiseMax(b.position + Vec3::Constant(b.bounding_radius));
  }
  return model.bodies.empty() ? 1.0 : std::max((hi - lo).norm(), 1e-6);
}

/// What the impulse solver cannot run yet, as an InputError naming the JSON path; nothing when it can.
void refuse_unsupported(const Model& model) {
  const std::string file = model.file.string() + ": ";
  if (model.settings.integrator != Integrator::implicit_euler)
    throw InputError(file + "settings.integrator: the impulse solver integrates with its own velocity-Verlet "
                            "scheme (Tomcin 2014 App. A); leave `integrator` at its default");
}

}  // namespace

void ImpulseSimulator::check_model(const Model& model) {
  read_impulse_settings(model.settings, model.file);
  refuse_unsupported(model);
}

SolverCapabilities ImpulseSimulator::capabilities() {
  SolverCapabilities c;
  c.prescribed_motion = true;
  c.state_edits = true;      // impulse_edits.cpp
  c.ground_contact = true;   // FCL detection, impulses (impulse_contacts.cpp)
  c.body_contact = true;
  c.friction = true;         // ODE-style: capped by μ times the normal impulse
  // not intersection_free: penetration is resolved after it is predicted, not prevented
  c.joint_limits = true;  // unilateral rows, activated when violated (header)
  c.joint_gap = 1e-5;     // rows to ε_P = 1e-6 each: an anchor gap of √3 ε_P, an axis to ε_P over its lever
  c.joints = {JointType::ball,  JointType::hinge,      JointType::universal, JointType::prismatic,
              JointType::fixed, JointType::cone_twist, JointType::slider,    JointType::distance};
  return c;
}

ImpulseSimulator::ImpulseSimulator(std::shared_ptr<const Model> model)
    : model_(std::move(model)),
      settings_(read_impulse_settings(model_->settings, model_->file)),
      detection_(*model_) {
  refuse_unsupported(*model_);
  bodies_ = rigid_bodies(*model_);
  const int n = static_cast<int>(bodies_.size());
  prescribed_.resize(n);
  for (int i = 0; i < n; ++i)
    if (bodies_[i].prescribed) prescribed_[i] = PrescribedMotion(model_->bodies[i]);
  for (const ForceDef& f : model_->forces) {
    const ModelBody& b = model_->bodies[f.body_index];
    force_points_.push_back(b.rotation.transpose() * (f.point.value_or(b.position) - b.position));
  }
  // The joints that constrain something that moves, then body splitting (§5, body_splitting.hpp).
  std::vector<RigidJoint> rows;
  std::vector<int> model_index;
  for (int k = 0; k < static_cast<int>(model_->joints.size()); ++k) {
    const ModelJoint& mj = model_->joints[k];
    const bool moves1 = !bodies_[mj.body1].prescribed, moves2 = mj.body2 >= 0 && !bodies_[mj.body2].prescribed;
    if (!moves1 && !moves2) continue;  // constrains nothing that moves
    rows.push_back(rigid_joint(mj, model_->bodies));
    model_index.push_back(k);
  }
  model_bodies_ = n;
  owner_ = split_bodies(bodies_, rows, settings_.split_parts);
  const int total = static_cast<int>(bodies_.size());
  std::vector<SystemJoint> blocks;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    Joint joint;
    joint.model_index = k < model_index.size() ? model_index[k] : -1;  // −1: a weld of a split body
    joint.rows = rows[k];
    const int b1 = joint.rows.body1, b2 = joint.rows.body2;
    const bool moves1 = !bodies_[b1].prescribed, moves2 = b2 >= 0 && !bodies_[b2].prescribed;
    blocks.push_back({moves1 ? b1 : -1, moves2 ? b2 : -1, joint.rows.count + joint.rows.limit_count});
    joints_.push_back(joint);
  }
  system_ = ArticulationSystem(blocks, total);
  blocks_of_body_.resize(total);
  for (int j = 0; j < static_cast<int>(system_.joints().size()); ++j) {
    if (system_.joints()[j].body1 >= 0) blocks_of_body_[system_.joints()[j].body1].push_back({j, 0});
    if (system_.joints()[j].body2 >= 0) blocks_of_body_[system_.joints()[j].body2].push_back({j, 1});
  }
  contacts_possible_ = model_->ground.has_value();
  for (int i = 0; i < n && !contacts_possible_; ++i)
    for (int k = i + 1; k < n && !contacts_possible_; ++k) contacts_possible_ = model_->may_collide(i, k);
  for (const SystemJoint& b : system_.joints()) {
    J1_.push_back(JointJacobian::Zero(b.rows, 6));
    J2_.push_back(JointJacobian::Zero(b.rows, 6));
  }
  limit_rates_.resize(joints_.size());
  free_.assign(system_.size(), 0);
  W_.assign(total, Mat6::Zero());
  now_.resize(total);
  next_.resize(total);
  prescribed_.resize(total);
  p_ = VecX::Zero(system_.size());
  h_ = model_->settings.dt;
  snapshots_.resize(kMaxHalvingDepth);
  turns_ = JointTurns(joints_.size());
  turn_snapshots_.resize(kMaxHalvingDepth);
  scene_size_ = scene_size(*model_);
  // The state the steps keep: A factorised at the poses of t, and velocities with J u = 0.
  evaluate_jacobians();
  for (std::size_t j = 0; j < joints_.size(); ++j) commit_limits(turns_, j, joints_[j].rows, limit_rates_[j].value);
  set_limit_rows();
  factorize();
  velocity_correction();
}

RigidPose ImpulseSimulator::pose_of(int body, const std::vector<RigidPose>& poses) const {
  return body >= 0 ? poses[body] : RigidPose{};
}

void ImpulseSimulator::evaluate_jacobians() {
  const double h = h_, t = t_;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    RigidBody& b = bodies_[i];
    if (b.prescribed) {
      now_[i] = prescribed_[i].at(t);
      b.c = now_[i].c;
      b.q = Quat(now_[i].R).normalized();
      prescribed_[i].twist(t, h, b.v, b.omega);
      continue;
    }
    now_[i] = b.pose();
    W_[i].setZero();
    W_[i].topLeftCorner<3, 3>().diagonal().setConstant(b.inverse_mass);
    W_[i].bottomRightCorner<3, 3>() = now_[i].R * b.inverse_inertia * now_[i].R.transpose();
  }
  joint_jacobians(now_);
  for (Joint& joint : joints_) joint.limit_side.fill(0);
}

void ImpulseSimulator::joint_jacobians(const std::vector<RigidPose>& poses) {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j].rows;
    const RigidPose p1 = poses[rj.body1], p2 = pose_of(rj.body2, poses);
    const RigidRows rows = rigid_rows(rj, p1, p2);
    J1_[j].topRows(rj.count) = rows.J1;
    if (rj.body2 >= 0) J2_[j].topRows(rj.count) = rows.J2;
    limit_rates_[j] = rigid_limit_coordinates(rj, p1, p2);
  }
}

void ImpulseSimulator::set_limit_rows() {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const Joint& joint = joints_[j];
    const int count = joint.rows.count, offset = system_.joints()[j].offset;
    for (int k = 0; k < joint.rows.limit_count; ++k) {
      const double side = joint.limit_side[k];
      J1_[j].row(count + k) = side * limit_rates_[j].J1.row(k);
      if (joint.rows.body2 >= 0) J2_[j].row(count + k) = side * limit_rates_[j].J2.row(k);
      free_[offset + count + k] = side == 0.0;
    }
  }
}

void ImpulseSimulator::factorize() {
  if (!system_.factorize(J1_, J2_, W_, free_, settings_.tikhonov))
    throw SimulationError("the system matrix A = J M⁻¹ Jᵀ + αI is not positive definite (raise "
                          "settings.impulse.tikhonov)");
}

void ImpulseSimulator::lead_turns() {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j].rows;
    if (rj.limit_count == 0) continue;
    const auto velocity = [&](int body) {
      Vec6 u = Vec6::Zero();
      if (body >= 0) u << bodies_[body].v, bodies_[body].omega;
      return u;
    };
    lead_limits(turns_, j, rj, limit_rates_[j], velocity(rj.body1), velocity(rj.body2), h_);
  }
}

RigidVector ImpulseSimulator::limit_values(std::size_t j, const std::vector<RigidPose>& poses) const {
  const RigidJoint& rj = joints_[j].rows;
  RigidVector s = rigid_limit_coordinates(rj, poses[rj.body1], pose_of(rj.body2, poses)).value;
  turns_.unwrap_limits(j, rj, s);
  return s;
}

void ImpulseSimulator::preview() {
  const double h = h_;
  lead_turns();  // the preview drifts at the current velocities
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const RigidBody& b = bodies_[i];
    if (b.prescribed) {
      next_[i] = prescribed_[i].at(t_ + h);
      continue;
    }
    const RigidDrift d = drift(b.c, b.q, b.v, b.omega, h);
    next_[i] = {d.c, d.q.toRotationMatrix()};
  }
}

double ImpulseSimulator::preview_violation() {
  // Equality rows converge when the joint error (joint_error: an anchor distance, or a row) is below
  // ε_P, the paper's ‖c‖∞ < ε_P with a joint's point rows taken together. A held limit row aims ε_P/2 inside its bound and converges
  // when within ε_P/2 of that, so a held coordinate never ends a step beyond its bound (header).
  const double margin = 0.5 * settings_.position_tolerance;
  double largest = 0.0;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const Joint& joint = joints_[j];
    const RigidJoint& rj = joint.rows;
    const int offset = system_.joints()[j].offset;
    const RigidPose p1 = next_[rj.body1], p2 = pose_of(rj.body2, next_);
    const RigidVector value = rigid_rows(rj, p1, p2).value;
    c_.segment(offset, rj.count) = value;
    if (rj.count > 0) largest = std::max(largest, joint_error(rj, value));
    if (rj.limit_count == 0) continue;
    const RigidVector s = limit_values(j, next_);
    for (int k = 0; k < rj.limit_count; ++k) {
      const int side = joint.limit_side[k];
      // C = s − min ≥ 0 held at min, C = max − s ≥ 0 held at max; the row is C − ε_P/2.
      double& c = c_[offset + rj.count + k];
      c = side > 0 ? s[k] - rj.limits[k].min - margin : side < 0 ? rj.limits[k].max - s[k] - margin : 0.0;
      largest = std::max(largest, 2.0 * std::abs(c));
    }
  }
  return largest;
}

void ImpulseSimulator::constraint_velocities(VecX& out) const {
  out.resize(system_.size());
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j].rows;
    const SystemJoint& block = system_.joints()[j];
    Eigen::Matrix<double, 6, 1> u1, u2;
    u1 << bodies_[rj.body1].v, bodies_[rj.body1].omega;
    auto seg = out.segment(block.offset, block.rows);
    seg = J1_[j] * u1;
    if (rj.body2 >= 0) {
      u2 << bodies_[rj.body2].v, bodies_[rj.body2].omega;
      seg += J2_[j] * u2;
    }
  }
}

void ImpulseSimulator::apply(const VecX& dp, double scale) {
  const auto push = [&](int body, const Eigen::Matrix<double, 6, 1>& impulse) {
    RigidBody& b = bodies_[body];
    b.v += b.inverse_mass * impulse.head<3>();
    b.omega += W_[body].bottomRightCorner<3, 3>() * impulse.tail<3>();
  };
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const SystemJoint& block = system_.joints()[j];
    const auto seg = dp.segment(block.offset, block.rows);
    if (block.body1 >= 0) push(block.body1, scale * (J1_[j].transpose() * seg));
    if (block.body2 >= 0) push(block.body2, scale * (J2_[j].transpose() * seg));
  }
}

void ImpulseSimulator::velocity_correction() {
  if (system_.size() == 0) return;
  constraint_velocities(rhs_);
  rhs_ = -rhs_;
  system_.solve(rhs_, dp_);
  apply(dp_);
}

int ImpulseSimulator::joint_correction(double& residual, bool may_give_up) {
  const double h = h_;
  c_.resize(system_.size());
  preview();
  residual = preview_violation();
  int stalled = 0;
  newton_active_ = false;
  for (int it = 0;; ++it) {
    if (residual < settings_.position_tolerance) return it;
    if (it == settings_.max_iterations) {
      capped_ = true;
      gave_up_ = may_give_up;
      return it;
    }
    rhs_ = -c_ / h;  // Tomcin Eq. 3: A Δp = −c⁽ˡ⁺¹⁾(p)/h
    if (newton_active_) exact_newton_.solve(rhs_, dp_);
    else system_.solve(rhs_, dp_);
    // Backtracking on ‖c‖∞ (not in the paper): A is the Jacobian of Eq. 2, exact only as hω → 0; where a
    // body turns fast (a whipped chain's tip, hω ≈ 0.4) the full step can raise the violation, and
    // modified Newton then diverges. Halving the step until ‖c‖∞ falls keeps it converging.
    double taken = 1.0;
    apply(dp_);
    preview();
    double next = preview_violation();
    for (int halving = 0; halving < kMaxHalvings && !(next < residual); ++halving) {
      apply(-0.5 * taken * dp_);
      taken *= 0.5;
      preview();
      next = preview_violation();
    }
    p_ += taken * dp_;
    // Still slow (not halving the violation): Newton on the exact matrix at the preview from here on
    // (exact_newton.hpp; not in the paper), refreshed while it stalls; each refresh is one LU, counted
    // in stats.csv's `warnings`.
    stalled = next > 0.5 * residual ? stalled + 1 : 0;
    residual = next;
    if (stalled == kStallsBeforeRefresh && may_give_up && newton_active_) {
      gave_up_ = true;  // exact Newton stalls too: the step is to be halved (step())
      return it + 1;
    }
    if (stalled == kStallsBeforeRefresh && refreshes_ < kMaxRefreshes) {
      exact_newton();
      stalled = 0;
    }
  }
}

void ImpulseSimulator::exact_newton() {
  const double h = h_;
  Jhat1_ = J1_;
  Jhat2_ = J2_;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const Joint& joint = joints_[j];
    const RigidJoint& rj = joint.rows;
    const RigidPose p1 = next_[rj.body1], p2 = pose_of(rj.body2, next_);
    const RigidRows rows = rigid_rows(rj, p1, p2);
    const RigidRows rates = rigid_limit_coordinates(rj, p1, p2);
    Jhat1_[j].topRows(rj.count) = rows.J1;
    if (rj.body2 >= 0) Jhat2_[j].topRows(rj.count) = rows.J2;
    for (int k = 0; k < rj.limit_count; ++k) {
      Jhat1_[j].row(rj.count + k) = joint.limit_side[k] * rates.J1.row(k);
      if (rj.body2 >= 0) Jhat2_[j].row(rj.count + k) = joint.limit_side[k] * rates.J2.row(k);
    }
    // The turn within the step: ω-columns times J_l(hω) of their body.
    Jhat1_[j].rightCols<3>() *= so3_left_jacobian(h * bodies_[rj.body1].omega);
    if (rj.body2 >= 0) Jhat2_[j].rightCols<3>() *= so3_left_jacobian(h * bodies_[rj.body2].omega);
  }
  if (!exact_newton_.factorize(system_.joints(), system_.size(), Jhat1_, Jhat2_, J1_, J2_, W_, free_)) return;
  newton_active_ = true;
  ++refreshes_;
}

bool ImpulseSimulator::update_limits() {
  bool changed = false;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    Joint& joint = joints_[j];
    const RigidJoint& rj = joint.rows;
    if (rj.limit_count == 0) continue;
    const RigidVector s = limit_values(j, next_);
    const int offset = system_.joints()[j].offset + rj.count;
    for (int k = 0; k < rj.limit_count; ++k) {
      int& side = joint.limit_side[k];
      if (side != 0 && p_[offset + k] < 0.0) {  // it pulls: the coordinate leaves its bound
        side = 0;
        changed = true;
      } else if (side == 0 && (s[k] < rj.limits[k].min || s[k] > rj.limits[k].max)) {
        side = s[k] < rj.limits[k].min ? 1 : -1;
        changed = true;
      }
    }
  }
  return changed;
}

void ImpulseSimulator::kick(double t_load, double span) {
  const Vec3& g = model_->settings.gravity;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].prescribed) continue;
    bodies_[i].v += span * g;
    gyroscopic_step(bodies_[i], span);
  }
  for (std::size_t k = 0; k < model_->forces.size(); ++k) {
    const ForceDef& f = model_->forces[k];
    RigidBody& b = bodies_[f.body_index];
    if (b.prescribed || !(f.start <= t_load && t_load < f.end)) continue;
    const Vec3 r = b.rotation() * (force_points_[k] - b.rest_center);
    b.v += span * b.inverse_mass * f.force;
    b.omega += span * (W_[f.body_index].bottomRightCorner<3, 3>() * (r.cross(f.force) + f.torque));
  }
  for (const AppliedForce& f : applied_) {  // apply_force's: over every (sub)step of the next step
    RigidBody& b = bodies_[f.body];
    if (b.prescribed) continue;
    const Vec3 r = b.rotation() * (f.rest_point - b.rest_center);
    b.v += span * b.inverse_mass * f.force;
    b.omega += span * (W_[f.body].bottomRightCorner<3, 3>() * r.cross(f.force));
  }
}

bool ImpulseSimulator::advance(double h, int depth, StepStats& stats) {
  deepest_ = std::max(deepest_, depth);
  const bool may_split = depth < kMaxHalvingDepth;
  if (may_split) {  // capacity kept between steps: no allocation
    snapshots_[depth] = bodies_;
    turn_snapshots_[depth] = turns_;
  }
  if (substep(h, may_split, stats)) return true;
  // Not converging: back to the start of the substep and take it as two halves. Each half turns the
  // bodies by half as much, so the constant gradient of Eq. 2 is closer to the true one (see header).
  bodies_ = snapshots_[depth];
  turns_ = turn_snapshots_[depth];
  ++stats.warnings;
  h_ = 0.5 * h;
  evaluate_jacobians();
  set_limit_rows();
  factorize();
  return advance(0.5 * h, depth + 1, stats) && advance(0.5 * h, depth + 1, stats);
}

bool ImpulseSimulator::substep(double h, bool may_give_up, StepStats& stats) {
  capped_ = false;
  gave_up_ = false;
  refreshes_ = 0;
  if (h != h_) {  // the prescribed bodies' twist over this substep's length (evaluate_jacobians)
    h_ = h;
    evaluate_jacobians();
    set_limit_rows();
  }
  const double t = t_;
  const bool verlet = settings_.integration == ImpulseIntegration::velocity_verlet;
  // 0: the collision phase (§7), on the velocities before the external impulses; with e = 0 the
  // contact phase below stops impacts as well.
  if (contacts_possible_ && settings_.restitution > 0.0) collision_phase();
  // 1–2: external impulses (the load of [t, t + h), as every solver holds it), velocity correction.
  kick(t, verlet ? 0.5 * h : h);
  velocity_correction();
  // 3: the joint correction, repeated while the active set of limits changes.
  saved_ = bodies_;  // same size every step: no allocation
  p_.setZero();
  preview();
  bool limited = update_limits();
  for (int pass = 1;; ++pass) {
    if (limited) {
      set_limit_rows();
      factorize();
    }
    double residual = 0.0;
    stats.iterations += joint_correction(residual, may_give_up);
    stats.residual = residual;
    stats.warnings += refreshes_;
    refreshes_ = 0;
    if (gave_up_) return false;
    if (!update_limits()) break;
    if (pass == kMaxLimitPasses) {
      capped_ = true;
      break;
    }
    limited = true;
    bodies_ = saved_;
    p_.setZero();
  }
  // 3b: the contact phase (§7) on the poses the joint correction leads to.
  if (contacts_possible_ && !contact_phase(stats, may_give_up)) return false;
  stats.hit_iteration_cap = stats.hit_iteration_cap || capped_;
  // 4: free flight to t + h, over which each limited angle turns by h ṡ (joint_turns.hpp).
  lead_turns();
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    RigidBody& b = bodies_[i];
    if (b.prescribed) continue;
    const RigidDrift d = drift(b.c, b.q, b.v, b.omega, h);
    b.c = d.c;
    b.q = d.q;
  }
  t_ = t + h;
  check_finite();
  // A at t + h for the next substep; with velocity Verlet, the second half of the external impulses and
  // RATTLE's velocity correction at t + h.
  evaluate_jacobians();
  for (std::size_t j = 0; j < joints_.size(); ++j) commit_limits(turns_, j, joints_[j].rows, limit_rates_[j].value);
  if (verlet) kick(t, 0.5 * h);
  set_limit_rows();
  factorize();
  if (verlet) velocity_correction();
  return true;
}

StepStats ImpulseSimulator::step() {
  const auto wall_start = std::chrono::steady_clock::now();
  StepStats stats;
  // Start at the depth the last steps needed, so that a hard stretch does not pay for the failed
  // attempts at every step; after kCalmSteps steps without a further halving, try one level coarser.
  const int parts = 1 << start_depth_;
  deepest_ = start_depth_;
  for (int k = 0; k < parts; ++k) advance(model_->settings.dt / parts, start_depth_, stats);
  if (deepest_ > start_depth_) {
    start_depth_ = deepest_;
    calm_steps_ = 0;
  } else if (start_depth_ > 0 && ++calm_steps_ >= kCalmSteps) {
    --start_depth_;
    calm_steps_ = 0;
  }
  ++step_;
  applied_.clear();  // apply_force's act for one step
  t_ = time();  // the sum of the substeps, without its round-off
  stats.step = step_;
  stats.time = time();
  stats.min_distance = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j].rows;
    const RigidPose p1 = now_[rj.body1], p2 = pose_of(rj.body2, now_);
    const RigidRows rows = rigid_rows(rj, p1, p2);
    if (rj.count > 0) stats.max_joint_error = std::max(stats.max_joint_error, joint_error(rj, rows.value));
    const RigidVector s = limit_values(j, now_);
    for (int k = 0; k < rj.limit_count; ++k)
      stats.max_joint_error =
          std::max({stats.max_joint_error, rj.limits[k].min - s[k], s[k] - rj.limits[k].max});
  }
  if (contacts_possible_) {  // the deepest penetration left at the end of the step
    detection_.detect(now_, contacts_);
    for (const RigidContact& c : contacts_) {
      if (c.depth > stats.max_penetration) stats.overlap_body1 = c.body1, stats.overlap_body2 = c.body2;
      stats.max_penetration = std::max(stats.max_penetration, c.depth);
    }
    stats.overlap_depth = stats.max_penetration;  // the contact depth check (io/contact_depth.hpp)
    stats.active_contacts = static_cast<int>(contacts_.size());
    if (!contacts_.empty()) stats.min_distance = -stats.max_penetration;
  }
  for (const RigidBody& b : bodies_) {
    stats.kinetic_energy += b.kinetic_energy();
    if (!b.prescribed) stats.potential_energy -= b.mass * model_->settings.gravity.dot(b.c);
  }
  stats.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

void ImpulseSimulator::check_finite() const {
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    const RigidBody& b = bodies_[i];
    if (!b.c.allFinite() || !b.q.coeffs().allFinite() || !b.v.allFinite() || !b.omega.allFinite() ||
        b.c.norm() > 1e6 * scene_size_)
      throw SimulationError("body '" + excerpt(model_->bodies[owner_[i]].name) + "' diverged (state not finite or runaway)");
  }
}

std::vector<BodyPose> ImpulseSimulator::poses() const { return body_poses(bodies_, model_bodies_); }

std::vector<BodyVelocity> ImpulseSimulator::velocities() const { return body_velocities(bodies_, model_bodies_); }

std::vector<JointRecord> ImpulseSimulator::joint_records() const { return affix::joint_records(*model_, poses()); }

}  // namespace affix
