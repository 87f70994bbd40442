#include "affix/solvers/mabd/mabd_simulator.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>

#include "affix/body/kinematic_motion.hpp"
#include "affix/energy/generalized_force.hpp"
#include "affix/energy/inertia.hpp"
#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/solvers/mabd/body_lanes.hpp"
#include "affix/solvers/mabd/contact_off_warning.hpp"
#include "affix/solvers/mabd/joint_graph.hpp"
#include "affix/solvers/mabd/prefetch.hpp"

namespace affix {
namespace {

constexpr double kMinEdge = 1e-3;  // floor of the control-tetrahedron edge ℓ (m), as for a point-like body

/// What the mabd solver cannot run yet, as an InputError naming the JSON path; nothing when it can.
void refuse_unsupported(const Model& model) {
  const std::string file = model.file.string() + ": ";
  const SolverCapabilities caps = MabdSimulator::capabilities();
  if (model.settings.integrator != Integrator::implicit_euler)
    throw InputError(file + "settings.integrator: the mabd solver integrates with \"implicit_euler\" only");
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const JointDef& j = model.joints[k].def;
    // (the path written only for the message: at 10⁶ joints, one string each was 0.1 s of setup)
    if (!caps.supports(j.type))
      throw InputError(file + "joints[" + std::to_string(k) + "].type: the mabd solver has no " +
                       std::string(to_string(j.type)) + " joint yet");
    // Every mabd joint is exact (a KKT row, He 2026 §5): a penalty `stiffness` would be ignored, and a
    // soft distance joint would run rigid without a word (hostile pass D12).
    if (j.stiffness)
      throw InputError(file + "joints[" + std::to_string(k) + "].stiffness: the mabd solver enforces every joint "
                       "exactly and has no penalty spring; remove it, or run the ipc or compliant solver");
  }
}

/// A forced `chain`, `tree` or `loop` dual solver must fit every group of jointed bodies: checked on the
/// joint graph alone (sides and row counts), before anything is solved.
void check_dual_solver(const Model& model, DualSolverKind kind) {
  if (kind != DualSolverKind::chain && kind != DualSolverKind::tree && kind != DualSolverKind::loop) return;
  std::vector<int> moving(model.bodies.size(), -1);
  std::vector<int> body_of;  // moving index → model index
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    if (model.bodies[i].is_dirichlet()) continue;
    moving[i] = static_cast<int>(body_of.size());
    body_of.push_back(static_cast<int>(i));
  }
  KktSystem structure;
  structure.bodies.resize(body_of.size(), KktBody{nullptr, CoRotation(Mat3::Identity(), RotationExtraction::polar)});
  for (const ModelJoint& j : model.joints) {
    KktJoint joint;
    joint.body1 = moving[j.body1];
    joint.body2 = j.body2 >= 0 ? moving[j.body2] : -1;
    joint.residual = CompactVector::Zero(compact_row_count(j.def) + max_limit_rows(j.def));
    structure.joints.push_back(joint);
  }
  const JointGraph graph(structure);
  for (const JointComponent& c : graph.components()) {
    const bool breakable = c.spanning_tree_fits && c.cycles <= kMaxLoopBreakers;  // loop_schur.hpp
    if (c.joints.empty() || (kind == DualSolverKind::chain  ? c.is_chain
                             : kind == DualSolverKind::tree ? c.is_tree
                                                            : c.is_chain || c.is_tree || breakable))
      continue;
    std::string why;
    if (c.busy_body >= 0) why = "body '" + excerpt(model.bodies[body_of[c.busy_body]].name) + "' is moved by more than 2 joints";
    if (c.cycle_joint >= 0) why = "joint '" + excerpt(model.joints[c.cycle_joint].def.name) + "' closes a loop";
    if (c.overfull_body >= 0 && (c.cycle_joint < 0 || kind == DualSolverKind::loop))
      why = "body '" + excerpt(model.bodies[body_of[c.overfull_body]].name) + "' has more than 12 rows to eliminate";
    if (kind == DualSolverKind::loop && c.cycles > kMaxLoopBreakers)
      why = "the group of body '" + excerpt(model.bodies[body_of[c.bodies.front()]].name) + "' has " +
            std::to_string(c.cycles) + " loops";
    const std::string needs = kind == DualSolverKind::loop ? "a chain, a tree or at most " +
                                                                 std::to_string(kMaxLoopBreakers) + " loops on one"
                                                           : std::string("a ") + dual_solver_name(kind);
    throw InputError(model.file.string() + ": settings.mabd.dual_solver: \"" + dual_solver_name(kind) +
                     "\" needs every group of jointed bodies to be " + needs + ", but " + why + "; use \"automatic\"");
  }
}

/// The mass properties and material that make H₀: bodies equal in these share one factorisation.
using FactorKey = std::array<double, 16>;
FactorKey factor_key(const AffineBody& b, const Lame& lame) {
  FactorKey k{b.mass, b.volume, lame.mu, lame.lambda};
  for (int i = 0; i < 3; ++i) k[4 + i] = b.center_of_mass[i];
  for (int i = 0; i < 9; ++i) k[7 + i] = b.second_moment(i / 3, i % 3);
  return k;
}

/// ½ max |‖aᵢ‖² − 1| over the rows aᵢ of the state's A: the diagonal of AAᵀ − I, the stretch that a turn
/// taken along A's tangent plane leaves (‖a + h ω × a‖² = ‖a‖² + h²‖ω × a‖²), within 2× of the largest
/// Green strain (σ² − 1)/2 ≈ σ − 1, in 9 multiply-adds and without a polar decomposition.
double row_stretch(const Vec12& q) {
  const double s0 = q.segment<3>(3).squaredNorm(), s1 = q.segment<3>(6).squaredNorm(),
               s2 = q.segment<3>(9).squaredNorm();
  return 0.5 * std::max({std::abs(s0 - 1.0), std::abs(s1 - 1.0), std::abs(s2 - 1.0)});
}

double scene_size(const std::vector<AffineBody>& bodies) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const AffineBody& b : bodies) {
    lo = lo.cwiseMin(b.position - Vec3::Constant(b.bounding_radius));
    hi = hi.cwiseMax(b.position + Vec3::Constant(b.bounding_radius));
  }
  return bodies.empty() ? 1.0 : std::max((hi - lo).norm(), 1e-6);
}

}  // namespace

void MabdSimulator::check_model(const Model& model) {
  const MabdSettings settings = read_mabd_settings(model.settings, model.file);
  refuse_unsupported(model);
  check_dual_solver(model, settings.dual_solver);
}

SolverCapabilities MabdSimulator::capabilities() {
  SolverCapabilities c;
  c.prescribed_motion = c.state_edits = true;
  c.ground_contact = true;  // by penalty: not intersection-free (penalty_contact.hpp)
  // Body–body penalty contact runs, but does not pass the shared contact tests: a CCD-cut step is an
  // inelastic impact for every moving body at once, so a thrown ball stops at a hinged board without
  // turning it (JointScenes.HingeBoards*). Not claimed until it transfers momentum.
  c.body_contact = false;
  c.joint_gap = 1e-5;
  c.joint_limits = true;  // clamped (joint_limits.hpp)
  c.joints = {JointType::ball,  JointType::hinge,      JointType::universal, JointType::prismatic,
              JointType::fixed, JointType::cone_twist, JointType::slider,    JointType::distance};
  return c;
}

MabdSimulator::MabdSimulator(std::shared_ptr<const Model> model)
    : model_(std::move(model)), settings_(read_mabd_settings(model_->settings, model_->file)) {
  refuse_unsupported(*model_);
  check_dual_solver(*model_, settings_.dual_solver);
  if (!settings_.body_contact) warn_when_bodies_can_touch(*model_, settings_.contact_thickness);  // hostile D4
  const double h = model_->settings.dt;
  bodies_ = affine_bodies(*model_);
  const int n = static_cast<int>(bodies_.size());
  moving_index_.assign(n, -1);
  // Reserved, not grown: at 10⁶ bodies a doubling vector of Vec12 briefly holds 1.5× its 96 MB and
  // faults in every page twice.
  lame_.reserve(n), loads_.reserve(n), q_.reserve(n), qdot_.reserve(n), factor_of_.reserve(n);
  moving_bodies_.reserve(n);
  edges_.reserve(model_->joints.size()), active_joints_.reserve(model_->joints.size());
  std::map<FactorKey, int> factor_index;
  for (int i = 0; i < n; ++i) {
    const AffineBody& b = bodies_[i];
    // Chen 2022's E/8·‖FᵀF − I‖² is the ipc orthogonality energy with κ = E/8 (mabd_settings.hpp).
    lame_.push_back(Lame::from_young(settings_.youngs_modulus.value_or(8.0 * b.stiffness), settings_.poisson_ratio));
    loads_.push_back(gravity_force(b, model_->settings.gravity));
    q_.push_back(b.q0);
    qdot_.push_back(b.qdot0);
    if (b.is_dirichlet()) {
      factor_of_.push_back(-1);
      prescribed_bodies_.push_back(i);
      continue;
    }
    moving_index_[i] = static_cast<int>(moving_bodies_.size());
    moving_bodies_.push_back(i);
    const auto [it, inserted] = factor_index.try_emplace(factor_key(b, lame_[i]), static_cast<int>(factors_.size()));
    if (inserted) {
      factors_.emplace_back(b.mass_matrix.matrix(), rest_stiffness(b.volume, lame_[i]), h);
      // h²M⁻¹ (the prediction's load term, header): M is SPD, so its LDLᵀ inverts it once per kind.
      const Mat12 compliance = h * h * Mat12(b.mass_matrix.matrix().ldlt().solve(Mat12::Identity()));
      kinds_.push_back({b.mass_matrix, b.volume, lame_[i], loads_[i], compliance, compliance * loads_[i]});
    }
    factor_of_.push_back(it->second);
  }
  for (int k = 0; k < static_cast<int>(model_->joints.size()); ++k) {
    const ModelJoint& j = model_->joints[k];
    edges_.push_back(std::max(bodies_[j.body1].bounding_radius, kMinEdge));
    // A joint between two prescribed bodies (or one and the world) constrains nothing that moves.
    if (moving_index_[j.body1] >= 0 || (j.body2 >= 0 && moving_index_[j.body2] >= 0)) active_joints_.push_back(k);
  }
  radius_.reserve(n);
  for (const AffineBody& b : bodies_) radius_.push_back(b.bounding_radius);
  kinematic_targets_.resize(n);
  limits_ = JointLimits(*model_, edges_, active_joints_, q_);
  twist_.assign(n, Mat3::Zero());
  for (int i : moving_bodies_) update_twist(i, CoRotation(state_matrix(q_[i]), settings_.rotation).rotation());
  force_points_ = force_rest_points(model_->forces, bodies_);
  scene_size_ = scene_size(bodies_);
  system_.bodies.reserve(moving_bodies_.size());
  contact_ = std::make_unique<PenaltyContact>(bodies_, model_->ground, settings_.body_contact, settings_.contact_thickness,
                                              settings_.contact_stiffness, h);
  // Never resized again (KktBody::dense points into it); 2.3 kB a body, so only where contact can be.
  if (contact_->can_touch()) dense_.resize(moving_bodies_.size());
  system_.joints.resize(active_joints_.size());
  // Ball and cone-twist sides as constant brackets (ball_brackets.hpp), one per distinct (H₀, P).
  for (std::size_t s = 0; s < active_joints_.size(); ++s) {
    const ModelJoint& j = model_->joints[active_joints_[s]];
    KktJoint& joint = system_.joints[s];
    joint.body1 = moving_index_[j.body1];  // the joint graph does not change during a run
    joint.body2 = j.body2 >= 0 ? moving_index_[j.body2] : -1;
    if (j.def.type != JointType::ball && j.def.type != JointType::cone_twist) continue;
    if (moving_index_[j.body1] >= 0) joint.bracket1 = brackets_.add(factors_[factor_of_[j.body1]], j.frame1.origin);
    if (j.body2 >= 0 && moving_index_[j.body2] >= 0)
      joint.bracket2 = brackets_.add(factors_[factor_of_[j.body2]], j.frame2.origin);
  }
  ball_pairs_.reserve(active_joints_.size());
  for (std::size_t s = 0; s < active_joints_.size(); ++s) {
    const KktJoint& joint = system_.joints[s];
    const ModelJoint& j = model_->joints[active_joints_[s]];
    const bool both = joint.bracket1 >= 0 && joint.bracket2 >= 0;
    ball_pairs_.push_back(both ? BallPair{j.body1, j.body2, joint.bracket1, joint.bracket2} : BallPair{});
  }
  for (std::size_t k = 0, s = 0; k < model_->joints.size(); ++k) {
    const bool active = s < active_joints_.size() && active_joints_[s] == static_cast<int>(k);
    if (!active || ball_pairs_[s++].body1 < 0) unpaired_joints_.push_back(static_cast<int>(k));
  }
}

void MabdSimulator::build_system(std::vector<Vec12>& q, const std::vector<Vec12>& loads,
                                 bool predict) {
  const double h2 = model_->settings.dt * model_->settings.dt;
  system_.bodies.clear();
  const bool gravity_only = &loads == &loads_;  // then every body of a factor has its kind's load
  const std::size_t moving = moving_bodies_.size();
  // g = M(q − q̃) + h²(∇Ψ(q) − f)  (header)
  const auto add_body = [&](int i, const Mat3& R, const Vec12& elastic, const Mat3* gain) {
    const int f = factor_of_[i];
    const BodyKind& kind = kinds_[f];
    // The loads are in q̃ (header), so g = M(q − q̃) + h²∇Ψ(q).
    Vec12 gradient = h2 * elastic;
    if (!predict) gradient += kind.mass * Vec12(q[i] - prediction(i, loads, gravity_only));  // at q = q̃ it is 0
    if (gain) {
      system_.bodies.emplace_back(&factors_[f], CoRotation(R, twist_[i], *gain), gradient);
      return;
    }
    KktBody& body = system_.bodies.emplace_back(&factors_[f], CoRotation(R), gradient);
    body.rotation.set_twist(*body.factor, twist_[i]);
  };
  // The prediction q = q̃ of a moving body, taken here in the pass that reads it (header).
  const auto state = [&](int i) {
    if (predict) q[i] = prediction(i, loads, gravity_only);
    return state_matrix(q[i]);
  };
  if (settings_.rotation == RotationExtraction::polar) {
    // Four bodies at a time, as the lanes of one vector (body_lanes.hpp: their latency is most of the cost).
    static const Mat3 kZero = Mat3::Zero();
    constexpr std::size_t kAhead = 2 * kBodyLanes;
    for (std::size_t m = 0; m < moving; m += kBodyLanes) {
      const int count = static_cast<int>(std::min<std::size_t>(kBodyLanes, moving - m));
      Mat3 A[kBodyLanes], R[kBodyLanes], gain[kBodyLanes];
      Vec12 elastic[kBodyLanes];
      LaneMaterial material[kBodyLanes];
      const Mat3* h2_gamma[kBodyLanes];
      const Mat3* W[kBodyLanes];
      for (int k = 0; k < kBodyLanes; ++k) {
        if (m + k + kAhead < moving) {  // (prefetch.hpp) the records of the lanes after next
          const int next = moving_bodies_[m + k + kAhead];
          prefetch(q_[next]), prefetch(qdot_[next]), prefetch(twist_[next]), prefetch(q[next], true);
          prefetch_storage(system_.bodies.data() + m + k + kAhead, true);  // within its reserved capacity
        }
        if (k >= count) {  // padding: a body at rest
          A[k] = Mat3::Identity(), material[k] = material[0], h2_gamma[k] = &kZero, W[k] = &kZero;
          continue;
        }
        const int i = moving_bodies_[m + k];
        const int f = factor_of_[i];
        A[k] = state(i);
        material[k] = {kinds_[f].volume, kinds_[f].lame};
        h2_gamma[k] = &twist_[i], W[k] = &factors_[f].twist_compliance;
      }
      polar_factors4(A, R);
      elastic_gradients4(A, R, material, elastic);
      twist_gains4(h2_gamma, W, gain);
      for (int k = 0; k < count; ++k) add_body(moving_bodies_[m + k], R[k], elastic[k], &gain[k]);
    }
  } else {
    for (std::size_t m = 0; m < moving; ++m) {
      const int i = moving_bodies_[m];
      const BodyKind& kind = kinds_[factor_of_[i]];
      const Mat3 R = rotation_of(state(i), settings_.rotation);
      add_body(i, R, elastic_gradient(q[i], R, kind.volume, kind.lame, settings_.rotation), nullptr);
    }
  }
  add_penalty_contact(q);
  system_.brackets = use_brackets_ ? &brackets_ : nullptr;
  bool unformed = false;  // a ball joint whose rows G are left to its brackets
  bool reshaped = system_.structure == 0;  // a joint's row count changed (a limit row on or off)
  for (std::size_t s = 0; s < active_joints_.size(); ++s) {
    const int k = active_joints_[s];
    KktJoint& joint = system_.joints[s];
    if (s + kPrefetchAhead < active_joints_.size()) prefetch(system_.joints[s + kPrefetchAhead], true);
    const int rows_before = joint.rows();
    if (use_brackets_ && joint.ball() && (!limits_.any_clamps() || limits_.clamps(k).empty())) {
      // The ball rows x₀¹ − x₀² (compact_rows.hpp), their gradients ±J(P) in the brackets; read from the
      // brackets' points where both sides move, without the model joint's cache lines.
      joint.residual = ball_residual(s, q);
      joint.G1.resize(0, 12), joint.G2.resize(0, 12);
      unformed = true;
      reshaped = reshaped || rows_before != 3;
      continue;
    }
    const ModelJoint& j = model_->joints[k];
    const Vec12& q2 = j.body2 >= 0 ? q[j.body2] : q[j.body1];  // ignored against the world
    const CompactRows rows = compact_rows(j, edges_[k], q[j.body1], q2, limits_.clamps(k));
    joint.G1 = rows.rows1;
    joint.G2 = j.body2 >= 0 ? rows.jacobian2() : CompactBlock(rows.rows1.rows(), 12);
    joint.residual = rows.value;
    reshaped = reshaped || joint.rows() != rows_before;
  }
  // The sides and the body count never change during a run: the row counts name the structure.
  if (reshaped) system_.structure = new_structure();
  // A group the ball chain solve does not take reads G: form the ball rows it left (J(P₁), −J(P₂)).
  if (!unformed || !dual_solver_.needs_rows(system_, settings_.dual_solver)) return;
  for (std::size_t s = 0; s < active_joints_.size(); ++s) {
    const ModelJoint& j = model_->joints[active_joints_[s]];
    KktJoint& joint = system_.joints[s];
    if (joint.G1.rows() + joint.G2.rows() > 0 || joint.rows() == 0) continue;
    joint.G1 = ball_rows(j.frame1.origin, 1.0);
    joint.G2 = j.body2 >= 0 ? ball_rows(j.frame2.origin, -1.0) : JointRows::Zero(3, 12);
  }
}

StepStats MabdSimulator::step() {
  const auto wall_start = std::chrono::steady_clock::now();
  const double h = model_->settings.dt, t = time(), t_next = t + h;
  const int n = static_cast<int>(bodies_.size());

  // The step's arrays live in members: at 10⁶ bodies each is 100 MB, which malloc would map afresh and
  // the kernel fault in page by page every step.
  // Gravity alone needs no copy of the loads (96 MB at 10⁶ bodies).
  const bool forced = !model_->forces.empty() || !applied_forces_.empty();
  if (forced) {
    step_loads_ = loads_;
    add_external_loads(step_loads_, model_->forces, force_points_, t, [&](int i) { return state_matrix(q_[i]); });
    // apply_force's forces, held for this step only: f = J(x̄)ᵀF, like a scene force.
    for (const AppliedForce& f : applied_forces_) step_loads_[f.body] += point_force(f.rest_point, f.force);
    applied_forces_.clear();
  }
  const std::vector<Vec12>& loads = forced ? step_loads_ : loads_;
  std::vector<Vec12>& q = q_next_;
  q.resize(n);
  // Contact (penalty_contact.hpp): one broad phase over the step's motion qⁿ → q̃, and no update, the
  // initial guess included, may cross a body–body stencil: each is cut to the CCD bound α. Only where
  // body pairs can touch: the ground is not cut.
  const bool cutting = contact_->has_body_pairs();
  // The prediction q = q̃ = qⁿ + h q̇ⁿ + h²M⁻¹f: the first build_system takes it for each moving body in its own
  // pass over them, unless the CCD must see every body's before it (one pass fewer over 4 × 96 B a body).
  for (int i : prescribed_bodies_) q[i] = prescribed_state(bodies_[i], t_next, kinematic_targets_[i]);
  if (cutting)
    for (int i : moving_bodies_) q[i] = prediction(i, loads, !forced);
  std::vector<Vec12>& update = update_;
  if (cutting) {
    update.assign(n, Vec12::Zero());
    std::vector<Vec12> q_start = q;
    for (int i : moving_bodies_) {
      q_start[i] = q_[i];
      update[i] = q[i] - q_[i];
    }
    contact_->begin_step(q_start, q);
    const double alpha = contact_->max_step(q_start, update);
    if (alpha < 1.0)
      for (int i : moving_bodies_) q[i] = q_start[i] + alpha * update[i];
  }

  StepStats stats;
  stats.residual = std::numeric_limits<double>::infinity();
  // After the Newton iterations, more while a joint limit is clamped or a distance row is off (§4.6,
  // joint_limits.hpp), or while a penalty contact appears that the last one did not see.
  limits_.begin_step();
  int contact_passes = 0;
  bool dual_capped = false;  // a Gauss–Seidel dual solve stopped at gauss_seidel_iterations
  bool cut = false;  // the last update was cut by the CCD: not converged (penalty_contact.hpp)
  bool diverged = false;  // a body of the last update failed check_finite's test
  const double range = 1e6 * scene_size_;
  // check_finite's test (there): not finite, or 1e6 × the scene size away (squared: no root per body).
  const auto runaway = [range2 = range * range](const Vec12& x) {
    return !x.allFinite() || x.head<3>().squaredNorm() > range2;
  };
  const auto contact_pass = [&] {
    return contact_passes < kMaxContactPasses && (cut || contact_->sees_new_contacts(q)) && ++contact_passes > 0;
  };
  // The most iterations a strained step may take (mabd_settings.hpp).
  const int most_iterations = std::max(settings_.iterations, settings_.max_iterations);
  double strain = 0.0;
  bool strained = false;  // the last iteration left a body strained past strain_tolerance, unconverged
  for (int it = 0;; ++it) {
    // Past the first iteration the iterate no longer carries the prediction's stretch (hω)²/2, so the
    // twist stiffness Γ is read there, not lagged from the last step (mabd_simulator.hpp, update_twist):
    // the lagged Γ trails a stress that rose within the step, and iterating on it diverged (a 1000×
    // heavy-end chain at h = 0.015 blew up with 8 iterations); read at the iterate they converge.
    if (it > 0) refresh_twist(q);
    build_system(q, loads, it == 0 && !cutting);
    const KktSolution& solution = dual_solver_.solve(
        system_, settings_.dual_solver, {settings_.gauss_seidel_tolerance, settings_.gauss_seidel_iterations});
    dual_capped = dual_capped || !dual_solver_.gauss_seidel().converged;
    // The scaled step of ipc's stopping test: a bound on every vertex's velocity change, relative to L.
    double largest = 0.0;
    double alpha = 1.0;
    if (cutting) {
      for (std::size_t m = 0; m < moving_bodies_.size(); ++m) update[moving_bodies_[m]] = solution.dq[m];
      alpha = contact_->max_step(q, update);
    }
    cut = alpha < 1.0;
    // The update, and in its pass check_finite's test of the moving bodies (it reads every state again
    // only to name one that failed); the last iteration's is the step's, as no later pass changes q.
    diverged = false;
    // The strain is read only where it can buy another iteration, in the pass that moves q (on lines
    // already loaded).
    const bool read_strain = it + 1 >= settings_.iterations && most_iterations > settings_.iterations;
    strain = 0.0;
    for (std::size_t m = 0; m < moving_bodies_.size(); ++m) {
      const int i = moving_bodies_[m];
      if (m + 2 * kBodyLanes < moving_bodies_.size())  // (prefetch.hpp)
        prefetch(solution.dq[m + 2 * kBodyLanes]), prefetch(q[moving_bodies_[m + 2 * kBodyLanes]], true);
      const Vec12 dq = alpha * solution.dq[m];
      q[i] += dq;
      largest = std::max(largest, dq.head<3>().lpNorm<Eigen::Infinity>() +
                                      radius_[i] * dq.tail<9>().lpNorm<Eigen::Infinity>());
      diverged = diverged || runaway(q[i]);
      if (read_strain) strain = std::max(strain, row_stretch(q[i]));
    }
    ++stats.iterations;
    stats.residual = largest / (h * scene_size_);
    const bool small_step = stats.residual < settings_.tolerance;
    strained = read_strain && strain > settings_.strain_tolerance && !small_step;
    const bool converged = (it + 1 >= settings_.iterations || small_step) && !(strained && it + 1 < most_iterations);
    if (converged && !limits_.another_pass(q, small_step) && !contact_pass()) break;
  }
  // A Gauss–Seidel dual solve that ran out of sweeps left the joints off by its residual: a cap too; and
  // a step that ran out of iterations while still strained past strain_tolerance.
  stats.hit_iteration_cap = (settings_.iterations > 1 && !(stats.residual < settings_.tolerance)) ||
                            limits_.hit_cap() || dual_capped || strained;
  limits_.end_step(q);
  for (int i : prescribed_bodies_) diverged = diverged || runaway(q[i]);
  if (diverged) check_finite(q);  // throws, naming the first body that failed

  // The new state, and in the same pass over the bodies its energies and the next step's twist term
  // (one rotation per body for both; the moving bodies four at a time as the lanes of one vector,
  // body_lanes.hpp, with the polar rotation).
  // The new state is q itself: q_ takes its storage at the end (a swap, not a 96 MB copy at 10⁶ bodies).
  const auto finish = [&](int i, const ElasticState& elastic) {
    const BodyKind& kind = kinds_[factor_of_[i]];
    stats.kinetic_energy += kinetic_energy(kind.mass, qdot_[i]);
    stats.potential_energy += linear_potential(kind.gravity, q[i]) + elastic.energy;
    twist_[i] = h * h * elastic.twist;
  };
  int pending[kBodyLanes];  // moving bodies whose new state is in, waiting for their lanes to fill
  int waiting = 0;
  const auto finish_pending = [&] {
    if (settings_.rotation != RotationExtraction::polar) {
      for (int k = 0; k < waiting; ++k) {
        const int i = pending[k];
        const BodyKind& kind = kinds_[factor_of_[i]];
        const Mat3 A = state_matrix(q[i]);
        finish(i, elastic_state(A, rotation_of(A, settings_.rotation), kind.volume, kind.lame, settings_.rotation));
      }
      waiting = 0;
      return;
    }
    Mat3 A[kBodyLanes], R[kBodyLanes];
    LaneMaterial material[kBodyLanes];
    ElasticState elastic[kBodyLanes];
    for (int k = 0; k < kBodyLanes; ++k) {
      if (k >= waiting) {  // padding: a body at rest
        A[k] = Mat3::Identity(), material[k] = material[0];
        continue;
      }
      const BodyKind& kind = kinds_[factor_of_[pending[k]]];
      A[k] = state_matrix(q[pending[k]]);
      material[k] = {kind.volume, kind.lame};
    }
    polar_factors4(A, R);
    elastic_states4(A, R, material, elastic);
    for (int k = 0; k < waiting; ++k) finish(pending[k], elastic[k]);
    waiting = 0;
  };
  // A ball joint's error is its gap (compact_row_error), read through its brackets as in build_system. The
  // joints whose two sides move are taken in this pass, each as soon as it reaches both of its bodies
  // (`fused` of them, in order: a chain's in step with its bodies, while their new states are still in
  // the cache; the last body reaches every one), the others after it.
  const std::size_t pairs = ball_pairs_.size();
  std::size_t fused = 0;
  const auto joint_errors_to = [&](int i) {
    for (; fused < pairs; ++fused) {
      const BallPair& pair = ball_pairs_[fused];
      if (pair.body1 < 0) continue;  // not a pair of brackets: the loop after this pass
      if (std::max(pair.body1, pair.body2) > i) break;
      stats.max_joint_error = std::max(stats.max_joint_error, ball_residual(fused, q).cwiseAbs().maxCoeff());
    }
  };
  for (int i = 0; i < n; ++i) {
    if (i + 2 * kBodyLanes < n) {  // (prefetch.hpp)
      const int next = i + 2 * kBodyLanes;
      prefetch(q[next]), prefetch(q_[next]), prefetch(qdot_[next], true), prefetch(twist_[next], true);
    }
    joint_errors_to(i);
    qdot_[i] = (q[i] - q_[i]) / h;
    if (factor_of_[i] < 0) {  // prescribed: no twist term
      const AffineBody& b = bodies_[i];
      const Mat3 R = CoRotation(state_matrix(q[i]), settings_.rotation).rotation();
      stats.kinetic_energy += kinetic_energy(b.mass_matrix, qdot_[i]);
      stats.potential_energy += linear_potential(loads_[i], q[i]) +
                                elastic_energy(q[i], R, b.volume, lame_[i], settings_.rotation);
      continue;
    }
    pending[waiting++] = i;
    if (waiting == kBodyLanes) finish_pending();
  }
  if (waiting > 0) finish_pending();
  q_.swap(q);  // q (q_next_) keeps the old state's storage: every entry is written again next step
  ++step_;

  stats.step = step_;
  stats.time = time();
  const PenaltyContact::Proximity contact = contact_->evaluate(q_);
  stats.min_distance = contact.min_distance;
  stats.active_contacts = contact.active;
  stats.max_penetration = contact.max_penetration;
  stats.overlap_body1 = contact.ground_overlap_body;  // the contact depth check (io/contact_depth.hpp)
  stats.overlap_depth = contact.ground_overlap;
  stats.potential_energy += contact.energy;
  for (const int k : unpaired_joints_) {
    const ModelJoint& j = model_->joints[k];
    stats.max_joint_error = std::max(
        stats.max_joint_error, compact_row_error(j, edges_[k], q_[j.body1], q_[j.body2 >= 0 ? j.body2 : j.body1]));
  }
  stats.max_joint_error = std::max(stats.max_joint_error, limits_.max_excess(q_));
  stats.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count();
  return stats;
}

Vec12 MabdSimulator::prediction(int i, const std::vector<Vec12>& loads, bool gravity_only) const {
  const BodyKind& kind = kinds_[factor_of_[i]];
  const double h = model_->settings.dt;
  return q_[i] + h * qdot_[i] + (gravity_only ? kind.gravity_drift : Vec12(kind.load_compliance * loads[i]));
}

void MabdSimulator::add_penalty_contact(const std::vector<Vec12>& q) {
  if (!contact_->can_touch()) return;
  contact_->evaluate(q);
  const double h2 = model_->settings.dt * model_->settings.dt;
  for (std::size_t m = 0; m < moving_bodies_.size(); ++m) {
    const int i = moving_bodies_[m];
    if (!contact_->touches(i)) continue;
    KktBody& body = system_.bodies[m];
    // E joins the incremental potential beside Ψ: g += h²∇E, H += h²∇²E (He 2026 §6, penalty_contact.hpp).
    body.gradient += h2 * contact_->gradient(i);
    KktBody::Dense& dense = dense_[m];
    dense.matrix = body.hessian() + h2 * contact_->hessian(i);
    dense.factor.compute(dense.matrix);  // SPD: Q H₀ Qᵀ is, and the penalty block is PSD
    body.dense = &dense;
  }
}

Vec3 MabdSimulator::ball_residual(std::size_t s, const std::vector<Vec12>& q) const {
  const BallPair& pair = ball_pairs_[s];
  if (pair.body1 >= 0)  // both sides move: P₁, P₂ are the brackets' points
    return world_point(q[pair.body1], brackets_[pair.bracket1].point) -
           world_point(q[pair.body2], brackets_[pair.bracket2].point);
  const ModelJoint& j = model_->joints[active_joints_[s]];
  return ball_gap(j, q[j.body1], j.body2 >= 0 ? q[j.body2] : q[j.body1]);
}

void MabdSimulator::update_twist(int i, const Mat3& R) {
  if (factor_of_[i] < 0) return;  // prescribed
  const double h = model_->settings.dt;
  twist_[i] = h * h * twist_stiffness(state_matrix(q_[i]), R, bodies_[i].volume, lame_[i], settings_.rotation);
}

void MabdSimulator::refresh_twist(const std::vector<Vec12>& q) {
  const double h = model_->settings.dt;
  for (int i : moving_bodies_) {
    const Mat3 A = state_matrix(q[i]);
    twist_[i] = h * h * twist_stiffness(A, rotation_of(A, settings_.rotation), bodies_[i].volume, lame_[i],
                                        settings_.rotation);
  }
}

void MabdSimulator::check_finite(const std::vector<Vec12>& q) const {
  const double range = 1e6 * scene_size_;
  for (std::size_t i = 0; i < q.size(); ++i) {
    // A body that left any sane range (1e6 × the scene size away) has run away (squared: no root per body;
    // the same test as step()'s `runaway`, which calls this only to name the body).
    if (!q[i].allFinite() || q[i].head<3>().squaredNorm() > range * range)
      throw SimulationError("body '" + excerpt(bodies_[i].name) + "' diverged (state not finite or runaway)");
  }
}

std::vector<BodyPose> MabdSimulator::poses() const {
  std::vector<BodyPose> out;
  out.reserve(q_.size());
  for (const Vec12& q : q_) out.push_back(affine_pose(q));
  return out;
}

std::vector<BodyVelocity> MabdSimulator::velocities() const {
  std::vector<BodyVelocity> out;
  out.reserve(q_.size());
  for (std::size_t i = 0; i < q_.size(); ++i) out.push_back(affine_velocity(q_[i], qdot_[i]));
  return out;
}

void MabdSimulator::set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) {
  check_state(*model_, this->poses(), poses, velocities);
  for (std::size_t i = 0; i < q_.size(); ++i) {
    q_[i] = affine_state(poses[i].p, poses[i].A);
    qdot_[i] = affine_state(velocities[i].linear, velocities[i].A_dot);  // q is linear in (p, A)
  }
  limits_.end_step(q_);  // the limited angles unwrap against the new state
  for (int i : moving_bodies_) update_twist(i, CoRotation(state_matrix(q_[i]), settings_.rotation).rotation());
}

void MabdSimulator::apply_force(int body, const Vec3& force, const Vec3& point) {
  check_body_index(*model_, body, "apply_force");
  applied_forces_.push_back(applied_force(*model_, body, affine_pose(q_[body]), force, point));
}

void MabdSimulator::set_kinematic_target(int body, const BodyPose& target) {
  check_kinematic_target(*model_, body, target);
  kinematic_targets_[body] = affine_state(target.p, target.A);
}

std::vector<JointRecord> MabdSimulator::joint_records() const { return affix::joint_records(*model_, poses()); }

}  // namespace affix
