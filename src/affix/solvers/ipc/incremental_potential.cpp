#include "affix/solvers/ipc/incremental_potential.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "affix/ccd/point_plane_ccd.hpp"
#include "affix/energy/barrier.hpp"
#include "affix/energy/generalized_force.hpp"
#include "affix/energy/ground_contact.hpp"
#include "affix/energy/inertia.hpp"
#include "affix/energy/orthogonality_potential.hpp"
#include "affix/math/psd_projection.hpp"
#include "affix/solvers/ipc/rayleigh_damping.hpp"

namespace affix {

namespace {

RayleighDamping damping_of(const StepConstants& c) { return {c.damping, c.damping_gamma, c.damping_offset}; }

}  // namespace

IncrementalPotential::IncrementalPotential(const std::vector<AffineBody>& bodies,
                                           const std::optional<Ground>& ground, double dhat,
                                           const JointModel& joints)
    : bodies_(bodies),
      ground_(ground),
      dhat_(dhat),
      contacts_(bodies, dhat),
      joints_(bodies, joints, dhat),
      joint_pairs_(joints.body_pairs) {}

std::vector<std::array<int, 2>> IncrementalPotential::coupled_body_pairs() const {
  std::vector<std::array<int, 2>> pairs = contacts_.candidate_body_pairs();
  if (joint_pairs_.empty()) return pairs;
  pairs.insert(pairs.end(), joint_pairs_.begin(), joint_pairs_.end());
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

bool IncrementalPotential::in_ground_contact(int i) const {
  return ground_.has_value() && !bodies_[i].is_dirichlet();
}

// Pₒ − fᵀq + κ Σ b + Σ D for one body, without the βh² factor.
double IncrementalPotential::body_potential(int i, const Vec12& q, const StepConstants& c) const {
  const AffineBody& body = bodies_[i];
  double P = orthogonality_potential(q, body.stiffness, body.volume) + linear_potential(c.loads[i], q);
  if (in_ground_contact(i)) {
    for (const Vec3& x_bar : body.mesh->vertices) {
      const double d = ground_distance(q, x_bar, ground_->height);
      if (d < dhat_) P += c.kappa * barrier(d, dhat_);
    }
    for (const auto& f : c.friction[i])
      P += ground_friction(q, body.mesh->vertices[f.vertex], f.x_start, f.mu_lambda, c.friction_eps).value;
  }
  return P;
}

std::vector<double> IncrementalPotential::body_energies(const VecX& q, const StepConstants& c,
                                                       const BodyMask& active) const {
  const int n = static_cast<int>(bodies_.size());
  std::vector<double> per_body(n, 0.0);
  tbb::parallel_for(0, n, [&](int i) {
    if (bodies_[i].is_dirichlet() || !active[i]) return;
    const Vec12 qi = body_segment(q, i);
    per_body[i] = inertia_energy(bodies_[i].mass_matrix, qi, c.q_tilde[i]) +
                  c.beta_h2 * body_potential(i, qi, c);
  });
  BodyMask include(active);
  for (int i = 0; i < n; ++i) include[i] = include[i] && !bodies_[i].is_dirichlet();
  contacts_.add_energies(q, c.kappa, c.beta_h2, c.pair_friction, c.friction_eps, include, per_body);
  joints_.add_energies(q, c.kappa, c.beta_h2, include, per_body);
  damping_of(c).add_energies(q, c.beta_h2, include, per_body);
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
  gradient.setZero(12 * n);
  H.reset(n);
  tbb::parallel_for(0, n, [&](int i) {
    const AffineBody& body = bodies_[i];
    if (body.is_dirichlet() || !active[i]) {
      H.diagonal(i) = Mat12::Identity();
      return;
    }
    const Vec12 qi = body_segment(q, i);
    Vec12 g = orthogonality_potential_gradient(qi, body.stiffness, body.volume) - c.loads[i];
    // The orthogonality Hessian lives on the 9 DOFs of A only: project that block.
    Mat12 h = Mat12::Zero();
    h.bottomRightCorner<9, 9>() = project_to_psd<9>(
        orthogonality_potential_hessian(qi, body.stiffness, body.volume).bottomRightCorner<9, 9>());
    if (in_ground_contact(i)) {
      // Barrier and friction stencil Hessians are PSD by construction (see ground_contact.hpp).
      for (const Vec3& x_bar : body.mesh->vertices) {
        if (ground_distance(qi, x_bar, ground_->height) >= dhat_) continue;
        const GroundStencil s = ground_barrier(qi, x_bar, ground_->height, dhat_, c.kappa);
        g += s.gradient;
        h += s.hessian;
      }
      for (const auto& f : c.friction[i]) {
        const GroundStencil s =
            ground_friction(qi, body.mesh->vertices[f.vertex], f.x_start, f.mu_lambda, c.friction_eps);
        g += s.gradient;
        h += s.hessian;
      }
    }
    body_segment(gradient, i) = inertia_gradient(body.mass_matrix, qi, c.q_tilde[i]) + c.beta_h2 * g;
    H.diagonal(i) = body.mass_matrix + c.beta_h2 * h;
  });
  contacts_.add_derivatives(q, c.kappa, c.beta_h2, c.pair_friction, c.friction_eps, gradient, H);
  joints_.add_derivatives(q, c.kappa, c.beta_h2, gradient, H);
  damping_of(c).add_derivatives(q, c.beta_h2, gradient, H);
  for (int i = 0; i < n; ++i) {
    if (!bodies_[i].is_dirichlet() && active[i]) continue;
    body_segment(gradient, i).setZero();
    H.make_dirichlet(i);
  }
}

void IncrementalPotential::barrier_balance_gradients(const VecX& q, const StepConstants& c,
                                                     VecX& barrier_grad, VecX& rest_grad) const {
  const int n = static_cast<int>(bodies_.size());
  barrier_grad.setZero(12 * n);
  rest_grad.setZero(12 * n);
  tbb::parallel_for(0, n, [&](int i) {
    const AffineBody& body = bodies_[i];
    if (body.is_dirichlet()) return;
    const Vec12 qi = body_segment(q, i);
    body_segment(rest_grad, i) =
        inertia_gradient(body.mass_matrix, qi, c.q_tilde[i]) +
        c.beta_h2 * (orthogonality_potential_gradient(qi, body.stiffness, body.volume) - c.loads[i]);
    if (!in_ground_contact(i)) return;
    Vec12 g = Vec12::Zero();
    for (const Vec3& x_bar : body.mesh->vertices) g += ground_barrier(qi, x_bar, ground_->height, dhat_, 1.0).gradient;
    body_segment(barrier_grad, i) = c.beta_h2 * g;
  });
  contacts_.add_barrier_gradient(q, c.beta_h2, barrier_grad);
  joints_.add_barrier_gradient(q, c.beta_h2, barrier_grad);
  for (int i = 0; i < n; ++i)
    if (bodies_[i].is_dirichlet()) body_segment(barrier_grad, i).setZero();
}

std::vector<std::vector<GroundFrictionContact>> IncrementalPotential::lag_friction(
    const VecX& q_lag, const VecX& q_start, double kappa) const {
  const int n = static_cast<int>(bodies_.size());
  std::vector<std::vector<GroundFrictionContact>> contacts(n);
  tbb::parallel_for(0, n, [&](int i) {
    if (!in_ground_contact(i)) return;
    const AffineBody& body = bodies_[i];
    // Friction coefficient of a pair: geometric mean of the two (DESIGN §3).
    const double mu = std::sqrt(body.friction * ground_->friction);
    if (mu == 0.0) return;
    const Vec12 qi = body_segment(q_lag, i);
    for (int v = 0; v < static_cast<int>(body.mesh->vertices.size()); ++v) {
      const Vec3& x_bar = body.mesh->vertices[v];
      const double d = ground_distance(qi, x_bar, ground_->height);
      if (d >= dhat_) continue;
      const double lambda = -kappa * barrier_first_derivative(d, dhat_);
      contacts[i].push_back({v, mu * lambda, world_point(body_segment(q_start, i), x_bar)});
    }
  });
  return contacts;
}

std::vector<double> IncrementalPotential::max_steps(const VecX& q, const VecX& dq,
                                                   const BodyMask& active) const {
  const int n = static_cast<int>(bodies_.size());
  std::vector<double> per_body(n, 1.0);
  tbb::parallel_for(0, n, [&](int i) {
    if (!in_ground_contact(i) || !active[i]) return;
    const Vec12 qi = body_segment(q, i), qi_end = qi + body_segment(dq, i);
    double alpha = 1.0;
    for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
      alpha = std::min(alpha, point_plane_max_step(ground_distance(qi, x_bar, ground_->height),
                                                   ground_distance(qi_end, x_bar, ground_->height)));
    }
    per_body[i] = alpha;
  });
  const std::vector<double> pairs = contacts_.max_steps(q, dq);
  const std::vector<double> limits = joints_.max_steps(q, dq);
  for (int i = 0; i < n; ++i) per_body[i] = std::min({per_body[i], pairs[i], limits[i]});
  return per_body;
}

ContactSummary IncrementalPotential::contact_summary(const VecX& q) const {
  ContactSummary s{std::numeric_limits<double>::infinity(), 0};
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    if (!in_ground_contact(i)) continue;
    for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
      const double d = ground_distance(body_segment(q, i), x_bar, ground_->height);
      if (d < s.min_distance) s.min_distance = d, s.closest = {i, -1};
      if (d < dhat_) ++s.active;
    }
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
    const Vec12 qi = body_segment(q, i);
    total += orthogonality_potential(qi, bodies_[i].stiffness, bodies_[i].volume) +
             linear_potential(gravity_loads[i], qi);
    if (!in_ground_contact(i)) continue;
    for (const Vec3& x_bar : bodies_[i].mesh->vertices)
      total += kappa * barrier(ground_distance(qi, x_bar, ground_->height), dhat_);
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
    if (!in_ground_contact(i)) continue;
    const double k_d = std::max(bodies_[i].damping, ground_->damping);
    if (k_d == 0.0) continue;
    const Vec12 qi = body_segment(q, i);
    for (const Vec3& x_bar : bodies_[i].mesh->vertices)
      if (ground_distance(qi, x_bar, ground_->height) < dhat_)
        K.diagonal(i) += k_d * ground_barrier(qi, x_bar, ground_->height, dhat_, kappa).hessian;
  }
  contacts_.add_damping_hessian(q, kappa, K);
  joints_.add_damping_hessian(q, kappa, K);
  bool any = !K.couplings().empty();
  for (int i = 0; i < n && !any; ++i) any = !K.diagonal(i).isZero(0.0);
  if (!any) K.reset(0);
  return K;
}

std::vector<ContactRecord> IncrementalPotential::contact_records(const VecX& q, double kappa) const {
  std::vector<ContactRecord> out;
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    if (!in_ground_contact(i)) continue;
    const Vec12 qi = body_segment(q, i);
    for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
      const double d = ground_distance(qi, x_bar, ground_->height);
      if (d >= dhat_) continue;
      ContactRecord r;
      r.body1 = i;
      r.body2 = -1;
      r.point = world_point(qi, x_bar) - Vec3(0.0, 0.0, 0.5 * d);
      r.normal = Vec3::UnitZ();
      r.distance = d;
      r.force = kappa * -barrier_first_derivative(d, dhat_);
      out.push_back(r);
    }
  }
  std::vector<ContactRecord> pairs = contacts_.contact_records(q, kappa);
  out.insert(out.end(), pairs.begin(), pairs.end());
  return out;
}

}  // namespace affix
