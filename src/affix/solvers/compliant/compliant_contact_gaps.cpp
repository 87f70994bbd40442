// The contact rows' gaps beyond the step's first-order rows (compliant_unilateral.cpp builds the rows).
//
// Contacts in the projection (issue 15). The post-step projection (project_poses) moves the bodies back
// onto their joints; knowing no contacts, it moved them into each other: a 2 t car on 10 kg planks hung on
// cables ended steps with no overlap, and the projection of the planks' joints put a plank 4.1 cm (h = 0.05)
// and 6.5 cm (h = 0.1) into a wheel, a reported divergence. The contacts at the step's poses (the step's
// margins) join the projection as rows g + UΔ ≥ min(g₀, 0), their points and body 2's normal carried with
// the bodies: a projection never presses a pair deeper than the step left it.
//
// Re-linearisation (issue 15). A row holds its gap to first order about the preview it was linearised at;
// where the solved motion turns a body far from that (the plank under a wheel), a pair ends deeper than its
// row allowed. After a solve the contacts are found again at the poses it reaches; while one overlaps by more
// than kShortfall beyond what its pair's rows allowed, the rows are rebuilt there — the end gap
// −δ + hU(v₊ − v_lin) about the solved v_lin, the start overlap δ + hU v_lin — and solved again, up to
// kRelinearisations times (a Gauss–Newton iteration on the contact gaps).
#include <algorithm>

#include "affix/solvers/compliant/compliant_simulator.hpp"

namespace affix {

void CompliantSimulator::find_projection_contacts(double h) {
  held_contacts_.clear();
  if (!may_touch_) return;
  std::vector<RigidPose>& now = reached_;
  now.resize(bodies_.size());
  for (std::size_t i = 0; i < bodies_.size(); ++i) now[i] = bodies_[i].pose();
  // The step's margins: a pair that a projection move of the step's size may close.
  const double pair_margin = model_->settings.gravity.norm() * h * h + kGroundMargin;
  detection_.detect(now, reached_contacts_, model_->ground ? kGroundMargin : 0.0, pair_margin);
  for (const RigidContact& c : reached_contacts_) {
    const bool moves = unknown_of_[c.body1] >= 0 || (c.body2 >= 0 && unknown_of_[c.body2] >= 0);
    if (!moves) continue;
    const Vec3 on1 = c.point - 0.5 * c.depth * c.normal, on2 = c.point + 0.5 * c.depth * c.normal;
    HeldContact held;
    held.body1 = c.body1, held.body2 = c.body2;
    held.local1 = now[c.body1].R.transpose() * (on1 - now[c.body1].c);
    held.local2 = c.body2 >= 0 ? Vec3(now[c.body2].R.transpose() * (on2 - now[c.body2].c)) : on2;
    held.normal2 = c.body2 >= 0 ? Vec3(now[c.body2].R.transpose() * c.normal) : c.normal;
    held.gap = -c.depth;
    held_contacts_.push_back(held);
  }
}

void CompliantSimulator::append_projection_contact_rows(std::vector<UnilateralRow>& rows) const {
  for (const HeldContact& held : held_contacts_) {
    // The gap at the current poses by the points and normal carried with their bodies (the projection's
    // moves are small: no rolling to speak of), and its Jacobian U = [n, r₁ × n | −n, −r₂ × n].
    const RigidBody& b1 = bodies_[held.body1];
    const Vec3 x1 = b1.rotation() * held.local1 + b1.c;
    Vec3 x2 = held.local2, n = held.normal2, c2 = Vec3::Zero();
    if (held.body2 >= 0) {
      const RigidBody& b2 = bodies_[held.body2];
      x2 = b2.rotation() * held.local2 + b2.c, n = b2.rotation() * held.normal2, c2 = b2.c;
    }
    UnilateralRow row;
    row.body = {unknown_of_[held.body1], held.body2 >= 0 ? unknown_of_[held.body2] : -1};
    row.J[0] << n, (x1 - b1.c).cross(n);
    if (held.body2 >= 0) row.J[1] << -n, -(x2 - c2).cross(n);
    for (int side = 0; side < 2; ++side)
      if (row.body[side] < 0) row.J[side].setZero();
    row.c = std::min(held.gap, 0.0) - n.dot(x1 - x2);
    rows.push_back(row);
  }
}

double CompliantSimulator::contact_shortfall(const std::vector<RigidPose>& end) {
  // FCL's overlaps at `end`, each against the overlap the rows of its pair allowed (the largest of them;
  // none for a pair without rows). Exact geometry: a point carried with its body would misread a rolling
  // sphere, whose contact point does not turn with it.
  detection_.detect(end, reached_contacts_, 0.0);
  double worst = 0.0;
  for (const RigidContact& e : reached_contacts_) {
    double allowed = 0.0;
    for (std::size_t k = 0; k < contacts_.size(); ++k)
      if (contacts_[k].body1 == e.body1 && contacts_[k].body2 == e.body2) allowed = std::max(allowed, contact_allowed_[k]);
    worst = std::max(worst, e.depth - allowed);
  }
  return worst;
}

MixedLcpResult CompliantSimulator::solve_unilateral(double h, const VecX& v_free, const VecX& b,
                                                    const std::vector<RigidPose>& preview, VecX& v, bool dense) {
  // Re-linearisation (header): the rows hold to first order about their preview; where the solved motion
  // carries a pair deeper than its row allowed (a plank turning under a wheel within the step), the contacts
  // are found again at the poses the solution reaches and their rows linearised there, and solved again.
  v = v_free;
  MixedLcpResult lcp = lcp_.solve(J_, system_, W_, dense ? &W_dense_ : nullptr, b, unilateral_, v, mu_,
                                  settings_.pgs_iterations, settings_.pgs_tolerance);
  if (!may_touch_) return lcp;
  for (int pass = 0; pass < kRelinearisations; ++pass) {
    reached_ = preview;  // the prescribed bodies' poses at t + h
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      const int u = unknown_of_[i];
      if (u < 0) continue;
      const RigidDrift d = drift(bodies_[i].c, bodies_[i].q, v.segment<3>(6 * u), v.segment<3>(6 * u + 3), h);
      reached_[i] = {d.c, d.q.toRotationMatrix()};
    }
    const double shortfall = contact_shortfall(reached_);
    if (shortfall <= kShortfall) break;
    v_lin_ = v;
    build_unilateral_rows(h, v_free, reached_, &v_lin_);
    append_drive_rows(h);
    v = v_free;
    const MixedLcpResult again = lcp_.solve(J_, system_, W_, dense ? &W_dense_ : nullptr, b, unilateral_, v, mu_,
                                            settings_.pgs_iterations, settings_.pgs_tolerance);
    lcp.sweeps += again.sweeps, lcp.pivots += again.pivots;
    lcp.converged = again.converged, lcp.residual = again.residual;
  }
  return lcp;
}

}  // namespace affix
