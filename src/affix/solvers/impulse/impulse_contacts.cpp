// Contacts and collisions of the impulse solver (Tomcin 2014 §7): the collision phase with restitution
// and the contact phase with ODE-style friction, each contact coupled to the articulation system.
//
// Coupling one contact row to the joints (§7: "insert them into the linear system of equations as last
// rows/columns"; the paper's Appendix C is lost from our copy, so the elimination is written here). The
// contact row j_c (the relative velocity of the contact point along a direction d) is appended to A:
//   [ A   B ] [p_J]   [0  ]      B = J M⁻¹ j_cᵀ,  s = j_c M⁻¹ j_cᵀ,
//   [ Bᵀ  s ] [p_c] = [r_c],     r_c the wanted change of the contact's rate.
// The first block row asks the joints' rates not to change (J Δu = 0), the last one the contact's to
// change by r_c. Eliminating p_J with the factorisation of A that the step already holds (one more
// forward and back substitution, no refactorisation): y = A⁻¹B, p_c = r_c / (s − Bᵀy), p_J = −y p_c.
// Then Δu = M⁻¹(j_cᵀ p_c + Jᵀ p_J). The impulse p_c moves the contact as if the whole articulation
// were one body behind it (a heavy block on a light rod, Fig. 1d, answers with its own mass at once).
// A body with no joint has B = 0 and p_c = r_c / s, the two-body impulse.
#include <algorithm>
#include <cmath>

#include "affix/solvers/impulse/impulse_simulator.hpp"

namespace affix {
namespace {

/// Sweeps of the collision and contact phases over their contacts (each re-detects first).
constexpr int kCollisionSweeps = 2;
constexpr int kContactSweeps = 4;
/// Projected Gauss–Seidel sweeps over the contacts of one detection (contact_phase).
constexpr int kGaussSeidelSweeps = 10;

/// Any unit vector perpendicular to n.
Vec3 perpendicular(const Vec3& n) {
  const Vec3 a = std::abs(n.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  return n.cross(a).normalized();
}

}  // namespace

Eigen::Matrix<double, 6, 1> ImpulseSimulator::contact_row(const RigidContact& c, const Vec3& d, int side,
                                                          const std::vector<RigidPose>& poses) const {
  // j_c on one body: ±[dᵀ, (r × d)ᵀ], r from its centre of mass to the point (+ for body1).
  const int body = side == 0 ? c.body1 : c.body2;
  Eigen::Matrix<double, 6, 1> row;
  const double sign = side == 0 ? 1.0 : -1.0;
  row << sign * d, sign * (c.point - poses[body].c).cross(d);
  return row;
}

Eigen::Matrix<double, 6, 1> ImpulseSimulator::pending_velocity(int body) const {
  const RigidBody& b = bodies_[body];
  Eigen::Matrix<double, 6, 1> u;
  u << b.v, b.omega;
  if (!pending_) return u;
  // The part of apply(joint_impulse_) that falls on this body: M⁻¹ Σ Jᵀ p over its joint blocks.
  Eigen::Matrix<double, 6, 1> p = Eigen::Matrix<double, 6, 1>::Zero();
  for (const auto& [j, joint_side] : blocks_of_body_[body]) {
    const SystemJoint& block = system_.joints()[j];
    p.noalias() += (joint_side == 0 ? J1_[j] : J2_[j]).transpose() * joint_impulse_.segment(block.offset, block.rows);
  }
  u.head<3>() += b.inverse_mass * p.head<3>();
  u.tail<3>() += W_[body].bottomRightCorner<3, 3>() * p.tail<3>();
  return u;
}

double ImpulseSimulator::contact_rate(const RigidContact& c, const Vec3& d, const std::vector<RigidPose>& poses) const {
  double rate = 0.0;
  for (int side = 0; side < 2; ++side) {
    const int body = side == 0 ? c.body1 : c.body2;
    if (body < 0) continue;
    rate += contact_row(c, d, side, poses).dot(pending_velocity(body));
  }
  return rate;
}

double ImpulseSimulator::couple(const RigidContact& c, const Vec3& d, const std::vector<RigidPose>& poses, VecX& y) {
  double s = 0.0;
  bool articulated = false;
  Eigen::Matrix<double, 6, 1> Wj[2];
  for (int side = 0; side < 2; ++side) {
    const int body = side == 0 ? c.body1 : c.body2;
    Wj[side].setZero();
    if (body < 0 || bodies_[body].prescribed) continue;
    const Eigen::Matrix<double, 6, 1> j = contact_row(c, d, side, poses);
    Wj[side] = W_[body] * j;
    s += j.dot(Wj[side]);
    articulated = articulated || !blocks_of_body_[body].empty();
  }
  y.resize(0);
  if (!(s > 0.0)) return 0.0;  // both sides prescribed
  if (!articulated || system_.size() == 0) return s;
  // B = J M⁻¹ j_cᵀ over the joint blocks on either body (header), then y = A⁻¹B.
  coupling_.setZero(system_.size());
  for (int side = 0; side < 2; ++side) {
    const int body = side == 0 ? c.body1 : c.body2;
    if (body < 0 || bodies_[body].prescribed) continue;
    for (const auto& [j, joint_side] : blocks_of_body_[body]) {
      const SystemJoint& block = system_.joints()[j];
      coupling_.segment(block.offset, block.rows) += (joint_side == 0 ? J1_[j] : J2_[j]) * Wj[side];
    }
  }
  system_.solve(coupling_, y);
  const double schur = s - coupling_.dot(y);
  // s − BᵀA⁻¹B > 0 unless the contact row is a combination of the joint rows (a contact that the
  // joints alone already hold); then no impulse can change its rate without breaking a joint.
  return schur > 1e-12 * s ? schur : 0.0;
}

double ImpulseSimulator::coupled_impulse(const RigidContact& c, const Vec3& d, double wanted,
                                         const std::vector<RigidPose>& poses) {
  const double mass = couple(c, d, poses, coupled_);
  return mass > 0.0 ? wanted / mass : 0.0;
}

void ImpulseSimulator::push(const RigidContact& c, const Vec3& d, double impulse, const std::vector<RigidPose>& poses,
                            const VecX& y) {
  if (impulse == 0.0) return;
  for (int side = 0; side < 2; ++side) {
    const int body = side == 0 ? c.body1 : c.body2;
    if (body < 0 || bodies_[body].prescribed) continue;
    const Eigen::Matrix<double, 6, 1> du = W_[body] * contact_row(c, d, side, poses) * impulse;
    bodies_[body].v += du.head<3>();
    bodies_[body].omega += du.tail<3>();
  }
  // The joints' impulses p_J = −y p_c of the elimination (header).
  if (y.size() == 0) return;
  if (pending_) {
    joint_impulse_.noalias() -= impulse * y;
  } else {
    apply(y, -impulse);
  }
}

void ImpulseSimulator::collision_phase() {
  // GBF03 / Tomcin §7: contacts found at the poses the velocities with the external impulses lead to,
  // resolved on the velocities before them, so that a resting body (approaching only by gravity's
  // kick) has no collision and only impacts bounce: v_n ← −e v_n.
  saved_ = bodies_;
  kick(t_, h_);
  preview();
  detection_.detect(next_, contacts_);
  bodies_ = saved_;
  if (contacts_.empty()) return;
  const double e = settings_.restitution;
  for (int sweep = 0; sweep < kCollisionSweeps; ++sweep) {
    bool changed = false;
    for (const RigidContact& c : contacts_) {
      const double vn = contact_rate(c, c.normal, now_);
      if (vn >= 0.0) continue;
      // Only the coupled row's impulse is clamped: it may push, never pull.
      const double p = coupled_impulse(c, c.normal, -(1.0 + e) * vn, now_);
      if (p <= 0.0) continue;
      push(c, c.normal, p, now_, coupled_);
      changed = true;
    }
    if (!changed) break;
  }
}

bool ImpulseSimulator::contact_phase(StepStats& stats, bool may_give_up) {
  // Tomcin §7's contact phase: contacts found at the predicted poses (the joint correction's preview)
  // get the normal impulses that remove their predicted penetration δ over the step (Δv_n = δ/h,
  // inelastic), and friction ODE-style (Smith 2000; §7 "resolving them with external impulses"): along
  // two tangents t₁, t₂ the impulses that stop the point's sliding, each within ±μ times the contact's
  // normal impulse (ODE's friction pyramid). Every impulse is coupled to the joints (header). The
  // contacts of one detection are swept kGaussSeidelSweeps times with accumulated impulses (projected
  // Gauss–Seidel: a normal impulse may shrink again, never below 0), so that a box's four corners
  // share its weight instead of the first one taking it all and tipping the box. A joint correction
  // follows, which restores the joints to ε_P (the coupling keeps them to first order only), and the
  // contacts are detected again (at most kContactSweeps times). y = A⁻¹B and s − Bᵀy of each contact row
  // depend on the poses only: they are solved once per detection (3 solves per contact), not per
  // sweep, and the joint impulses −y p_c are summed and applied once after the sweeps (a rate reads
  // them on its own bodies only), so that a sweep costs O(contacts × rows) axpys, no solve.
  const double h = h_;
  records_.clear();
  for (int sweep = 0; sweep < kContactSweeps; ++sweep) {
    preview();
    detection_.detect(next_, contacts_);
    const std::size_t n = contacts_.size();
    bool penetrating = false;
    for (const RigidContact& c : contacts_) penetrating = penetrating || c.depth > 0.0;
    if (!penetrating) break;
    rates_.resize(n);
    accumulated_.assign(n, Vec3::Zero());  // (normal, t₁, t₂)
    if (coupled_rows_.size() < 3 * n) coupled_rows_.resize(3 * n);  // grows only: keeps their storage
    coupled_mass_.resize(3 * n);
    for (std::size_t k = 0; k < n; ++k) {
      const RigidContact& c = contacts_[k];
      rates_[k] = contact_rate(c, c.normal, now_);
      const Vec3 t1 = perpendicular(c.normal), t2 = c.normal.cross(t1);
      coupled_mass_[3 * k] = couple(c, c.normal, now_, coupled_rows_[3 * k]);
      coupled_mass_[3 * k + 1] = couple(c, t1, now_, coupled_rows_[3 * k + 1]);
      coupled_mass_[3 * k + 2] = couple(c, t2, now_, coupled_rows_[3 * k + 2]);
    }
    const auto impulse_for = [&](std::size_t row, double wanted) {
      return coupled_mass_[row] > 0.0 ? wanted / coupled_mass_[row] : 0.0;
    };
    pending_ = system_.size() > 0;
    if (pending_) joint_impulse_.setZero(system_.size());
    for (int gs = 0; gs < kGaussSeidelSweeps; ++gs) {
      for (std::size_t k = 0; k < n; ++k) {
        const RigidContact& c = contacts_[k];
        Vec3& P = accumulated_[k];
        // The predicted depth after this step's impulses so far is δ − h(v_n − v_n⁰); aim at 0.
        const double wanted = c.depth / h - (contact_rate(c, c.normal, now_) - rates_[k]);
        const double pn = std::max(P[0] + impulse_for(3 * k, wanted), 0.0) - P[0];
        push(c, c.normal, pn, now_, coupled_rows_[3 * k]);
        P[0] += pn;
        const double bound = friction_of(c) * P[0];
        const Vec3 t1 = perpendicular(c.normal), t2 = c.normal.cross(t1);
        for (int i = 1; i <= 2; ++i) {
          const Vec3& t = i == 1 ? t1 : t2;
          const double target = std::clamp(P[i] + impulse_for(3 * k + i, -contact_rate(c, t, now_)), -bound, bound);
          push(c, t, target - P[i], now_, coupled_rows_[3 * k + i]);
          P[i] = target;
        }
      }
    }
    if (pending_) apply(joint_impulse_);
    pending_ = false;
    if (sweep == 0)
      for (std::size_t k = 0; k < n; ++k)
        if (accumulated_[k][0] > 0.0) {
          const RigidContact& c = contacts_[k];
          records_.push_back({c.body1, c.body2, c.point, c.normal, -c.depth, accumulated_[k][0] / h});
        }
    double residual = 0.0;
    stats.iterations += joint_correction(residual, may_give_up);
    // The contact impulses can push a joint past a limit that was inactive in step 3 (ragdolls falling
    // on each other: 0.43 rad past a cone-twist bound in examples/joints/ragdolls_10.json). The limit
    // then holds in the joint correction that follows, as in step 3; the next sweep's detection sees
    // any contact that this correction moves back into.
    for (int pass = 0; pass < kMaxLimitPasses && update_limits(); ++pass) {
      set_limit_rows();
      factorize();
      stats.iterations += joint_correction(residual, may_give_up);
    }
    stats.residual = residual;
    if (gave_up_) return false;
  }
  return true;
}

double ImpulseSimulator::friction_of(const RigidContact& c) const {
  // √(μ₁μ₂), the friction mixing of every solver (README, Conventions).
  const double mu1 = model_->bodies[c.body1].friction;
  const double mu2 = c.body2 >= 0 ? model_->bodies[c.body2].friction : model_->ground->friction;
  return std::sqrt(mu1 * mu2);
}

}  // namespace affix
