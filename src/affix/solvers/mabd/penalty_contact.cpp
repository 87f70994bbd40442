#include "affix/solvers/mabd/penalty_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "affix/body/collision_filter.hpp"
#include "affix/ccd/additive_ccd.hpp"
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

/// ACCD's minimum separation ratio: a cut update keeps each pair at least this fraction of its gap.
constexpr double kSeparation = 0.1;
/// ACCD's trial steps per pair: a pair sliding at distance d over L needs ~L/d of them (additive_ccd.hpp),
/// and pressed contacts reach d ≪ ξ; the capped toi is short, never unsafe, and the step iterates again.
constexpr int kCcdIterations = 64;

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
                               bool body_pairs, double thickness, std::optional<double> stiffness, double h)
    : bodies_(bodies), ground_(ground), thickness_(thickness), stiffness_(stiffness), h_(h) {
  const int n = static_cast<int>(bodies.size());
  for (int i = 0; i < n && body_pairs && !any_pairs_; ++i)
    for (int j = i + 1; j < n && !any_pairs_; ++j) any_pairs_ = may_collide(bodies, i, j);
  if (any_pairs_) edges_ = body_edges(bodies);
  touched_.assign(n, 0);
  if (!ground_ && !any_pairs_) return;  // nothing can touch: no per-body storage (1.2 kB a body)
  gradient_.assign(n, Vec12::Zero());
  hessian_.assign(n, Mat12::Zero());
}

std::vector<ContactRecord> PenaltyContact::ground_records(const std::vector<Vec12>& q) const {
  std::vector<ContactRecord> records;
  if (!ground_) return records;
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    if (bodies_[i].is_dirichlet()) continue;
    const double k = stiffness(static_cast<int>(i), -1);
    for (const Vec3& x_bar : bodies_[i].mesh->vertices) {
      const Vec3 x = world_point(q[i], x_bar);
      const double gap = x.z() - ground_->height;
      if (gap >= 0.0) continue;
      // ½kδ² per vertex below the ground (header): its force is kδ along +z.
      records.push_back({static_cast<int>(i), -1, Vec3(x.x(), x.y(), x.z() - 0.5 * gap), Vec3::UnitZ(), gap, -k * gap});
    }
  }
  return records;
}

double PenaltyContact::stiffness(int i, int j) const {
  if (stiffness_) return *stiffness_;
  double m = 0.0;  // the heaviest moving body of the contact (header)
  for (int b : {i, j})
    if (b >= 0 && !bodies_[b].is_dirichlet()) m = std::max(m, bodies_[b].mass);
  return kPenaltyStiffnessFactor * m / (h_ * h_);
}

void PenaltyContact::broad_phase(const WorldVertices& x0, const WorldVertices& x1) {
  if (slack_ < 0.0) slack_ = thickness_;
  box_min_ = x0;
  box_max_ = x0;
  for (std::size_t i = 0; i < x0.size(); ++i)
    for (std::size_t v = 0; v < x0[i].size(); ++v) {
      box_min_[i][v] = box_min_[i][v].cwiseMin(x1[i][v]);
      box_max_[i][v] = box_max_[i][v].cwiseMax(x1[i][v]);
    }
  // Boxes inflated by ξ + σ each: pairs within ξ + 2σ of each other's swept boxes (header).
  candidates_ = find_contact_candidates(bodies_, edges_, x0, &x1, thickness_ + slack_);
  ++broad_phases_;
}

bool PenaltyContact::covers(const WorldVertices& x) const {
  if (slack_ < 0.0) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t v = 0; v < x[i].size(); ++v)
      if (((box_min_[i][v] - x[i][v]).array() > slack_).any() || ((x[i][v] - box_max_[i][v]).array() > slack_).any())
        return false;
  return true;
}

void PenaltyContact::begin_step(const std::vector<Vec12>& q_start, const std::vector<Vec12>& q_end) {
  last_q_.clear();
  if (!any_pairs_) return;
  const WorldVertices x0 = all_world_vertices(bodies_, q_start), x1 = all_world_vertices(bodies_, q_end);
  // σ (header): small, since a margin wider than a mesh's primitives pairs every primitive of two near
  // bodies (a ¼-motion margin made the collapsing tree 8× slower); a larger correction redoes the phase.
  slack_ = 2.0 * thickness_;
  broad_phase(x0, x1);
}

double PenaltyContact::max_step(const std::vector<Vec12>& q, const std::vector<Vec12>& dq) {
  if (!any_pairs_) return 1.0;
  std::vector<Vec12> q1 = q;
  for (std::size_t i = 0; i < q.size(); ++i) q1[i] += dq[i];
  const WorldVertices x0 = all_world_vertices(bodies_, q), x1 = all_world_vertices(bodies_, q1);
  if (!covers(x0) || !covers(x1)) broad_phase(x0, x1);  // a vertex's path lies in its (convex) box
  const auto toi = [&](const ContactCandidate& c) {
    const auto pos = [&](int body, int v) -> const Vec3& { return x0[body][v]; };
    const auto disp = [&](int body, int v) { return Vec3(x1[body][v] - x0[body][v]); };
    if (c.kind == CandidateKind::vertex_face) {
      const auto& f = bodies_[c.body_b].mesh->faces[c.prim_b];
      return point_triangle_accd(pos(c.body_a, c.prim_a), pos(c.body_b, f[0]), pos(c.body_b, f[1]),
                                 pos(c.body_b, f[2]), disp(c.body_a, c.prim_a), disp(c.body_b, f[0]),
                                 disp(c.body_b, f[1]), disp(c.body_b, f[2]), kSeparation, 1.0, kCcdIterations)
          .toi;
    }
    const auto& ea = edges_[c.body_a][c.prim_a];
    const auto& eb = edges_[c.body_b][c.prim_b];
    return edge_edge_accd(pos(c.body_a, ea[0]), pos(c.body_a, ea[1]), pos(c.body_b, eb[0]), pos(c.body_b, eb[1]),
                          disp(c.body_a, ea[0]), disp(c.body_a, ea[1]), disp(c.body_b, eb[0]), disp(c.body_b, eb[1]),
                          kSeparation, 1.0, kCcdIterations)
        .toi;
  };
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, candidates_.size()), 1.0,
      [&](const tbb::blocked_range<std::size_t>& r, double alpha) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) alpha = std::min(alpha, toi(candidates_[k]));
        return alpha;
      },
      [](double a, double b) { return std::min(a, b); });
}

PenaltyContact::Proximity PenaltyContact::evaluate(const std::vector<Vec12>& q) {
  Proximity prox;
  prox.min_distance = std::numeric_limits<double>::infinity();
  if (!ground_ && !any_pairs_) return prox;
  if (!last_q_.empty() && last_q_ == q) return last_;
  std::fill(touched_.begin(), touched_.end(), 0);
  ground_active_.clear();
  pair_active_.clear();
  last_q_.clear();
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
      if (-gap > prox.ground_overlap) prox.ground_overlap = -gap, prox.ground_overlap_body = static_cast<int>(i);
      ++prox.active;
      ground_active_.push_back({static_cast<int>(i), static_cast<int>(&x_bar - bodies_[i].mesh->vertices.data())});
    }
  }
  if (any_pairs_) add_pairs(q, prox);
  last_q_ = q;
  last_ = prox;
  return prox;
}

void PenaltyContact::add_pairs(const std::vector<Vec12>& q, Proximity& prox) {
  const WorldVertices x = all_world_vertices(bodies_, q);
  if (!covers(x)) broad_phase(x, x);  // outside the step's boxes (or no step begun): redo it here
  // The candidates reduced to the stencils within ξ: sorted, so the sums below run in one order always.
  for (const ContactStencil& s : active_stencils(bodies_, edges_, candidates_, x, thickness_)) {
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
}

bool PenaltyContact::sees_new_contacts(const std::vector<Vec12>& q) {
  if (!last_q_.empty() && last_q_ == q) return false;  // the last evaluation's point: nothing new
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
  const auto candidates = find_contact_candidates(bodies_, edges_, x, nullptr, thickness_);
  for (const ContactStencil& s : active_stencils(bodies_, edges_, candidates, x, thickness_))
    total += stencil_penalty(s, stencil_positions(s, x), thickness_, stiffness(s.body_a(), s.body_b())).value;
  return total;
}

}  // namespace affix
