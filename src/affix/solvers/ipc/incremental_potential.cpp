#include "affix/solvers/ipc/incremental_potential.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "affix/energy/generalized_force.hpp"
#include "affix/energy/inertia.hpp"
#include "affix/energy/orthogonality_potential.hpp"
#include "affix/energy/orthogonality_projection.hpp"
#include "affix/solvers/ipc/rayleigh_damping.hpp"

namespace affix {

void RayleighDampingTerm::add_energies(const VecX& q, const StepConstants& c, const std::vector<char>& include,
                                       std::vector<double>& per_body) const {
  RayleighDamping{c.damping, c.damping_gamma, c.damping_offset, layout_}.add_energies(q, c.beta_h2, include, per_body);
}

void RayleighDampingTerm::add_derivatives(const VecX& q, const StepConstants& c, const std::vector<char>& /*active*/,
                                          VecX& gradient, BlockHessian& H) const {
  RayleighDamping{c.damping, c.damping_gamma, c.damping_offset, layout_}.add_derivatives(q, c.beta_h2, gradient, H);
}

IncrementalPotential::IncrementalPotential(const std::vector<AffineBody>& bodies,
                                           const std::optional<Ground>& ground, double dhat,
                                           const JointModel& joints)
    : bodies_(bodies),
      layout_(affine_layout(bodies)),
      dhat_(dhat),
      ground_contacts_(bodies, ground, dhat),
      contacts_(bodies, dhat),
      joints_(bodies, joints, dhat),
      joint_pairs_(joints.body_pairs),
      contact_term_(contacts_),
      joint_term_(joints_),
      damping_term_(layout_) {}

std::vector<std::array<int, 2>> IncrementalPotential::coupled_body_pairs() const {
  std::vector<std::array<int, 2>> pairs = contacts_.candidate_body_pairs();
  if (joint_pairs_.empty()) return pairs;
  pairs.insert(pairs.end(), joint_pairs_.begin(), joint_pairs_.end());
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// Pₒ − fᵀq + κ Σ b + Σ D for one body, without the βh² factor.
double IncrementalPotential::body_potential(int i, const Vec12& q, const StepConstants& c) const {
  const AffineBody& body = bodies_[i];
  double P = orthogonality_potential(q, body.stiffness, body.volume) + linear_potential(c.loads[i], q);
  if (ground_contacts_.acts_on(i)) ground_contacts_.add_energy(i, q, c.kappa, c.friction[i], c.friction_eps, P);
  return P;
}

std::vector<double> IncrementalPotential::body_energies(const VecX& q, const StepConstants& c,
                                                       const BodyMask& active) const {
  const int n = static_cast<int>(bodies_.size());
  std::vector<double> per_body(n, 0.0);
  tbb::parallel_for(0, n, [&](int i) {
    if (bodies_[i].is_dirichlet() || !active[i]) return;
    const Vec12 qi = body_segment(layout_, q, i);
    per_body[i] = inertia_energy(bodies_[i].mass_matrix, qi, c.q_tilde[i]) +
                  c.beta_h2 * body_potential(i, qi, c);
  });
  BodyMask include(active);
  for (int i = 0; i < n; ++i) include[i] = include[i] && !bodies_[i].is_dirichlet();
  for (const EnergyTerm* term : coupling_terms()) term->add_energies(q, c, include, per_body);
  return per_body;
}

double IncrementalPotential::energy(const VecX& q, const StepConstants& c) const {
  double total = 0.0;
  for (double e : body_energies(q, c, BodyMask(bodies_.size(), 1)))
    total += e;  // fixed order: the same sum on any thread count
  return total;
}

void IncrementalPotential::gradient_and_hessian(const VecX& q, const StepConstants& c,
                                                const BodyMask& active, VecX& gradient,
                                                BlockHessian& H) const {
  const int n = static_cast<int>(bodies_.size());
  gradient.setZero(layout_.total());
  // The coupling pattern from the culling (Lan 2022 §4.3): one block per candidate or joint body pair.
  H.reset(n, coupled_body_pairs());
  tbb::parallel_for(0, n, [&](int i) {
    const AffineBody& body = bodies_[i];
    if (body.is_dirichlet() || !active[i]) {
      H.diagonal(i) = Mat12::Identity();
      return;
    }
    const Vec12 qi = body_segment(layout_, q, i);
    Vec12 g = orthogonality_potential_gradient(qi, body.stiffness, body.volume) - c.loads[i];
    // The orthogonality Hessian lives on the 9 DOFs of A only: that block, projected in closed form.
    Mat12 h = Mat12::Zero();
    h.bottomRightCorner<9, 9>() = orthogonality_projected_hessian(qi, body.stiffness, body.volume);
    if (ground_contacts_.acts_on(i))
      ground_contacts_.add_derivatives(i, qi, c.kappa, c.friction[i], c.friction_eps, g, h);
    body_segment(layout_, gradient, i) = inertia_gradient(body.mass_matrix, qi, c.q_tilde[i]) + c.beta_h2 * g;
    H.diagonal(i) = body.mass_matrix.matrix() + c.beta_h2 * h;
  });
  BodyMask solved(active);
  for (int i = 0; i < n; ++i) solved[i] = solved[i] && !bodies_[i].is_dirichlet();
  for (const EnergyTerm* term : coupling_terms()) term->add_derivatives(q, c, solved, gradient, H);
  for (int i = 0; i < n; ++i)
    if (!solved[i]) body_segment(layout_, gradient, i).setZero();
  H.make_dirichlet(solved);
}

void IncrementalPotential::barrier_balance_gradients(const VecX& q, const StepConstants& c,
                                                     VecX& barrier_grad, VecX& rest_grad) const {
  const int n = static_cast<int>(bodies_.size());
  barrier_grad.setZero(layout_.total());
  rest_grad.setZero(layout_.total());
  tbb::parallel_for(0, n, [&](int i) {
    const AffineBody& body = bodies_[i];
    if (body.is_dirichlet()) return;
    const Vec12 qi = body_segment(layout_, q, i);
    body_segment(layout_, rest_grad, i) =
        inertia_gradient(body.mass_matrix, qi, c.q_tilde[i]) +
        c.beta_h2 * (orthogonality_potential_gradient(qi, body.stiffness, body.volume) - c.loads[i]);
    if (!ground_contacts_.acts_on(i)) return;
    body_segment(layout_, barrier_grad, i) = c.beta_h2 * ground_contacts_.barrier_gradient(i, qi);
  });
  for (const EnergyTerm* term : coupling_terms()) term->add_barrier_gradient(q, c.beta_h2, barrier_grad);
  for (int i = 0; i < n; ++i)
    if (bodies_[i].is_dirichlet()) body_segment(layout_, barrier_grad, i).setZero();
}

std::vector<std::vector<GroundFrictionContact>> IncrementalPotential::lag_friction(
    const VecX& q_lag, const VecX& q_start, double kappa) const {
  const int n = static_cast<int>(bodies_.size());
  std::vector<std::vector<GroundFrictionContact>> contacts(n);
  tbb::parallel_for(0, n, [&](int i) {
    if (ground_contacts_.acts_on(i))
      contacts[i] = ground_contacts_.lag_friction(i, body_segment(layout_, q_lag, i), body_segment(layout_, q_start, i), kappa);
  });
  return contacts;
}

std::vector<double> IncrementalPotential::max_steps(const VecX& q, const VecX& dq,
                                                   const BodyMask& active) const {
  const int n = static_cast<int>(bodies_.size());
  std::vector<double> per_body(n, 1.0);
  tbb::parallel_for(0, n, [&](int i) {
    if (!ground_contacts_.acts_on(i) || !active[i]) return;
    const Vec12 qi = body_segment(layout_, q, i);
    per_body[i] = ground_contacts_.max_step(i, qi, qi + body_segment(layout_, dq, i));
  });
  for (const EnergyTerm* term : coupling_terms()) term->limit_steps(q, dq, active, per_body);
  return per_body;
}

ContactSummary IncrementalPotential::contact_summary(const VecX& q) const {
  ContactSummary s{std::numeric_limits<double>::infinity(), 0};
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    if (!ground_contacts_.acts_on(i)) continue;
    const GroundContactModel::Proximity p = ground_contacts_.proximity(i, body_segment(layout_, q, i));
    if (p.min_distance < s.min_distance) s.min_distance = p.min_distance, s.closest = {i, -1};
    s.active += p.active;
  }
  const BodyContactModel::Proximity pairs = contacts_.min_distance(q);
  if (pairs.min_distance < s.min_distance) s.min_distance = pairs.min_distance, s.closest = pairs.closest;
  s.active += pairs.active;
  return s;
}

double IncrementalPotential::potential_energy(const VecX& q, const std::vector<Vec12>& gravity_loads,
                                              double kappa) const {
  double total = 0.0;
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    if (bodies_[i].is_dirichlet()) continue;
    const Vec12 qi = body_segment(layout_, q, i);
    total += orthogonality_potential(qi, bodies_[i].stiffness, bodies_[i].volume) +
             linear_potential(gravity_loads[i], qi);
    if (ground_contacts_.acts_on(i)) ground_contacts_.add_barrier_energy(i, qi, kappa, total);
  }
  std::vector<double> pair_energy(bodies_.size(), 0.0);
  contacts_.add_energies(q, kappa, 1.0, {}, 0.0, BodyMask(bodies_.size(), 1), pair_energy);
  for (double e : pair_energy) total += e;
  return total + joints_.potential_energy(q, kappa);
}

double IncrementalPotential::min_barrier_distance(const VecX& q) const {
  return std::min(contact_summary(q).min_distance, joints_.min_limit_distance(q));
}

BlockHessian IncrementalPotential::damping_hessian(const VecX& q, double kappa) const {
  const int n = static_cast<int>(bodies_.size());
  BlockHessian K;
  K.reset(n);
  for (int i = 0; i < n; ++i) {
    if (ground_contacts_.acts_on(i)) K.diagonal(i) += ground_contacts_.damping_hessian(i, body_segment(layout_, q, i), kappa);
  }
  for (const EnergyTerm* term : coupling_terms()) term->add_damping_hessian(q, kappa, K);
  bool any = !K.couplings().empty();
  for (int i = 0; i < n && !any; ++i) any = !K.diagonal(i).isZero(0.0);
  if (!any) K.reset(0);
  return K;
}

std::vector<ContactRecord> IncrementalPotential::contact_records(const VecX& q, double kappa) const {
  std::vector<ContactRecord> out;
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    if (ground_contacts_.acts_on(i)) ground_contacts_.add_contact_records(i, body_segment(layout_, q, i), kappa, out);
  }
  std::vector<ContactRecord> pairs = contacts_.contact_records(q, kappa);
  out.insert(out.end(), pairs.begin(), pairs.end());
  return out;
}

}  // namespace affix
