#include "affix/solvers/mabd/penalty_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "affix/body/collision_filter.hpp"
#include "affix/distance/edge_edge_mollifier.hpp"
#include "affix/energy/contact_barrier.hpp"
#include "affix/math/psd_projection.hpp"

namespace affix {
namespace {

/// The largest |z| a rest point of body b can reach from its origin under A: |a₂·x̄| ≤ ‖a₂‖ r.
double reach_z(const AffineBody& b, const Vec12& q) { return q.segment<3>(9).norm() * b.bounding_radius; }

WorldVertices all_world_vertices(const std::vector<AffineBody>& bodies, const std::vector<Vec12>& q) {
  WorldVertices x(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    x[i].reserve(bodies[i].mesh->vertices.size());
    for (const Vec3& x_bar : bodies[i].mesh->vertices) x[i].push_back(world_point(q[i], x_bar));
  }
  return x;
}

}  // namespace

AffineDerivatives ground_penalty(const AffineBody& body, const Vec12& q, double height, double k) {
  AffineDerivatives e;
  if (q(2) - reach_z(body, q) >= height) return e;  // no vertex can be below the ground
  const Mat3 ez = Vec3::UnitZ() * Vec3::UnitZ().transpose();
  for (const Vec3& x_bar : body.mesh->vertices) {
    const double depth = height - world_point(q, x_bar).z();  // δ, linear in q
    if (depth <= 0.0) continue;
    e.value += 0.5 * k * depth * depth;
    e.gradient -= k * depth * point_jacobian_transpose_times(x_bar, Vec3::UnitZ());  // ∂δ/∂q = −J(x̄)ᵀe_z
    e.hessian += k * point_jacobian_congruence(x_bar, ez, x_bar);
  }
  return e;
}

StencilDerivatives stencil_penalty(const ContactStencil& s, const Vec12& positions, double thickness, double k) {
  const StencilDerivatives sq = stencil_squared_distance(s, positions);
  StencilDerivatives p;
  const double d = std::sqrt(sq.value);
  if (!(d < thickness)) return p;
  // E(s) = ½ k (ξ − √s)²: the header's E_s and E_ss; d > 0 unless two features coincide exactly, where
  // the direction of separation is undefined and the stencil is skipped (its neighbours still push).
  if (!(d > 1e-12 * thickness)) return p;
  const double km = k * s.multiplicity;
  const double Es = -km * (thickness - d) / (2.0 * d);
  const double Ess = km * thickness / (4.0 * d * d * d);
  p.value = 0.5 * km * (thickness - d) * (thickness - d);
  p.gradient = Es * sq.gradient;
  p.hessian = Ess * sq.gradient * sq.gradient.transpose() + Es * sq.hessian;
  if (s.form != StencilForm::edge_edge) return p;
  const Vec3 a0 = positions.segment<3>(0), a1 = positions.segment<3>(3), b0 = positions.segment<3>(6),
             b1 = positions.segment<3>(9);
  StencilDerivatives m;
  m.value = edge_edge_mollifier(a0, a1, b0, b1, s.mollifier_threshold);
  if (m.value == 1.0) return p;
  m.gradient = edge_edge_mollifier_gradient(a0, a1, b0, b1, s.mollifier_threshold);
  m.hessian = edge_edge_mollifier_hessian(a0, a1, b0, b1, s.mollifier_threshold);
  return mollified(p, m);  // ∇²(mE) = m∇²E + E∇²m + ∇m∇Eᵀ + ∇E∇mᵀ
}

PenaltyContact::PenaltyContact(const std::vector<AffineBody>& bodies, const std::optional<Ground>& ground,
                               double thickness, std::optional<double> stiffness, double h)
    : bodies_(bodies), ground_(ground), thickness_(thickness), stiffness_(stiffness), h_(h) {
  const int n = static_cast<int>(bodies.size());
  for (int i = 0; i < n && !any_pairs_; ++i)
    for (int j = i + 1; j < n && !any_pairs_; ++j) any_pairs_ = may_collide(bodies, i, j);
  if (any_pairs_) edges_ = body_edges(bodies);
  touched_.assign(n, 0);
  gradient_.assign(n, Vec12::Zero());
  hessian_.assign(n, Mat12::Zero());
}

double PenaltyContact::stiffness(int i, int j) const {
  if (stiffness_) return *stiffness_;
  double m = 0.0;  // the heaviest moving body of the contact (header)
  for (int b : {i, j})
    if (b >= 0 && !bodies_[b].is_dirichlet()) m = std::max(m, bodies_[b].mass);
  return kPenaltyStiffnessFactor * m / (h_ * h_);
}

std::vector<ContactStencil> PenaltyContact::stencils(const WorldVertices& x) const {
  if (!any_pairs_) return {};
  // Candidates whose primitive boxes, inflated by ξ, meet (sort-and-sweep, i-AABB, uniform grid), reduced to
  // the stencils within ξ: sorted, so the sums below run in one order on any thread count.
  const std::vector<ContactCandidate> candidates = find_contact_candidates(bodies_, edges_, x, nullptr, thickness_);
  return active_stencils(bodies_, edges_, candidates, x, thickness_);
}

PenaltyContact::Proximity PenaltyContact::evaluate(const std::vector<Vec12>& q) {
  Proximity prox;
  prox.min_distance = std::numeric_limits<double>::infinity();
  std::fill(touched_.begin(), touched_.end(), 0);
  ground_active_.clear();
  pair_active_.clear();
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].is_dirichlet()) continue;
    gradient_[i].setZero();
    hessian_[i].setZero();
    if (!ground_) continue;
    const AffineDerivatives e = ground_penalty(bodies_[i], q[i], ground_->height, stiffness(static_cast<int>(i), -1));
    if (e.value == 0.0) continue;
    touched_[i] = 1;
    prox.energy += e.value;
    gradient_[i] += e.gradient;
    hessian_[i] += e.hessian;
    for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
      const double gap = world_point(q[i], x_bar).z() - ground_->height;
      if (gap >= 0.0) continue;
      prox.min_distance = std::min(prox.min_distance, gap);
      prox.max_penetration = std::max(prox.max_penetration, -gap);
      ++prox.active;
      ground_active_.push_back({static_cast<int>(i), static_cast<int>(&x_bar - bodies_[i].mesh->vertices.data())});
    }
  }
  if (!any_pairs_) return prox;
  const WorldVertices x = all_world_vertices(bodies_, q);
  for (const ContactStencil& s : stencils(x)) {
    const Vec12 positions = stencil_positions(s, x);
    const int a = s.body_a(), b = s.body_b();
    const StencilDerivatives p = stencil_penalty(s, positions, thickness_, stiffness(a, b));
    if (p.value == 0.0) continue;
    const double d = std::sqrt(stencil_squared_distance_value(s, positions));
    prox.min_distance = std::min(prox.min_distance, d);
    prox.max_penetration = std::max(prox.max_penetration, thickness_ - d);
    ++prox.active;
    prox.energy += p.value;
    pair_active_.push_back(s);
    const Mat12 H = project_to_psd(p.hessian);
    const bool both_move = !bodies_[a].is_dirichlet() && !bodies_[b].is_dirichlet();
    const double scale = both_move ? 2.0 : 1.0;  // the block-Jacobi majoriser (header)
    for (int side : {a, b}) {
      if (bodies_[side].is_dirichlet()) continue;
      touched_[side] = 1;
      for (int k = 0; k < s.count; ++k) {
        if (s.v[k].body != side) continue;
        const Vec3& xk = bodies_[side].mesh->vertices[s.v[k].vertex];
        gradient_[side] += point_jacobian_transpose_times(xk, p.gradient.segment<3>(3 * k));
        for (int l = 0; l < s.count; ++l) {
          if (s.v[l].body != side) continue;
          const Vec3& xl = bodies_[side].mesh->vertices[s.v[l].vertex];
          hessian_[side] += scale * point_jacobian_congruence(xk, H.block<3, 3>(3 * k, 3 * l), xl);
        }
      }
    }
  }
  return prox;
}

bool PenaltyContact::sees_new_contacts(const std::vector<Vec12>& q) {
  const std::vector<std::array<int, 2>> ground_before = std::move(ground_active_);
  const std::vector<ContactStencil> pairs_before = std::move(pair_active_);
  evaluate(q);
  return !std::includes(ground_before.begin(), ground_before.end(), ground_active_.begin(), ground_active_.end()) ||
         !std::includes(pairs_before.begin(), pairs_before.end(), pair_active_.begin(), pair_active_.end());
}

double PenaltyContact::energy(const std::vector<Vec12>& q) const {
  double total = 0.0;
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (ground_ && !bodies_[i].is_dirichlet())
      total += ground_penalty(bodies_[i], q[i], ground_->height, stiffness(static_cast<int>(i), -1)).value;
  if (!any_pairs_) return total;
  const WorldVertices x = all_world_vertices(bodies_, q);
  for (const ContactStencil& s : stencils(x))
    total += stencil_penalty(s, stencil_positions(s, x), thickness_, stiffness(s.body_a(), s.body_b())).value;
  return total;
}

}  // namespace affix
