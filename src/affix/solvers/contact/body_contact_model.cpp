#include "affix/solvers/contact/body_contact_model.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "affix/ccd/additive_ccd.hpp"
#include "affix/distance/edge_edge_mollifier.hpp"
#include "affix/energy/barrier.hpp"
#include "affix/energy/friction.hpp"
#include "affix/math/psd_projection.hpp"
#include "affix/math/rotation.hpp"
#include "affix/solvers/assembly/stencil_assembly.hpp"

namespace affix {
namespace {

/// The stencil's points as body points, for the shared chain rule (stencil_assembly.hpp).
StencilBodyTerms to_bodies(const ContactStencil& s, const std::vector<AffineBody>& bodies,
                           const StencilDerivatives& d) {
  std::array<BodyPoint, 4> points;
  for (int k = 0; k < s.count; ++k) points[k] = {s.v[k].body, bodies[s.v[k].body].mesh->vertices[s.v[k].vertex]};
  return stencil_to_bodies(points.data(), s.count, d.value, d.gradient, d.hessian);
}

/// Orthonormal rows spanning the relative motions of N points — the complement of their common
/// translations: Helmert's contrasts hₖ (k = 1 … N − 1; hₖ[j] = 1/√(k(k+1)) for j < k, −k/√(k(k+1))
/// for j = k, 0 after) times I₃.
template <int N>
Eigen::Matrix<double, 3 * (N - 1), 3 * N> relative_basis() {
  Eigen::Matrix<double, 3 * (N - 1), 3 * N> T = Eigen::Matrix<double, 3 * (N - 1), 3 * N>::Zero();
  for (int k = 1; k < N; ++k) {
    const double scale = 1.0 / std::sqrt(double(k) * (k + 1));
    for (int j = 0; j <= k; ++j)
      for (int c = 0; c < 3; ++c) T(3 * (k - 1) + c, 3 * j + c) = (j < k ? 1.0 : -double(k)) * scale;
  }
  return T;
}

/// PSD projection of the first 3N coordinates of H through their relative motions. A stencil's
/// squared distance (and the edge–edge mollifier) depends on differences of its points only, so its
/// barrier's Hessian vanishes on common translations: H = Tᵀ (T H Tᵀ) T with T's orthonormal rows
/// (relative_basis), and — an orthonormal change of basis commuting with the projection —
/// PSD(H) = Tᵀ PSD(T H Tᵀ) T: a 3(N − 1) eigendecomposition instead of a 3N one (9 instead of 12 for a
/// point–triangle or edge–edge stencil, 6 instead of 9 for a point–edge one), equal up to round-off.
template <int N>
void project_relative(Mat12& H) {
  constexpr int D = 3 * N, R = 3 * (N - 1);
  static const Eigen::Matrix<double, R, D> T = relative_basis<N>();
  const Eigen::Matrix<double, R, R> reduced = T * H.topLeftCorner<D, D>() * T.transpose();
  const Eigen::Matrix<double, D, D> full = T.transpose() * project_to_psd<R>(reduced) * T;
  H.topLeftCorner<D, D>() = 0.5 * (full + full.transpose());  // exactly symmetric for assembly
}

/// The stencil's barrier Hessian projected to PSD on its own 3·count point coordinates (the rest is
/// zero padding), through their relative motions (project_relative): a point–triangle or edge–edge
/// stencil needs a 9×9 eigendecomposition, a point–edge stencil a 6×6, and a point–point stencil a
/// 3×3. Point–point: s = ‖r‖², r = x₀ − x₁, so ∇s = 2(r, −r), ∇²s = 2K ⊗ I with K = [1 −1; −1 1], and
/// the barrier's Hessian P_ss ∇s∇sᵀ + P_s ∇²s is K ⊗ A, A its top-left 3×3 block (A = 4P_ss rrᵀ + 2P_s
/// I). K's eigenvalues are 2 and 0, so the eigenvalues of K ⊗ A are 2λ(A) and 0, with the same
/// eigenvectors: PSD(K ⊗ A) = K ⊗ PSD(A), a 3×3 projection.
void project_stencil_hessian(const ContactStencil& s, Mat12& H) {
  switch (s.count) {
    case 2: {
      const Mat3 A = project_to_psd<3>(Mat3(H.topLeftCorner<3, 3>()));
      H.topLeftCorner<3, 3>() = A;
      H.block<3, 3>(0, 3) = -A;
      H.block<3, 3>(3, 0) = -A;
      H.block<3, 3>(3, 3) = A;
      break;
    }
    case 3: project_relative<3>(H); break;
    default: project_relative<4>(H); break;
  }
}

/// κ b of one barrier stencil on its bodies, its Hessian projected to PSD in vertex space.
StencilBodyTerms projected_barrier(const ContactStencil& s, const std::vector<AffineBody>& bodies,
                                const WorldVertices& x, double dhat, double kappa) {
  StencilDerivatives d = stencil_barrier(s, stencil_positions(s, x), dhat, kappa);
  project_stencil_hessian(s, d.hessian);
  return to_bodies(s, bodies, d);
}

/// Relative tangential displacement u = Tᵀ Σ w_k (x_k − x_k,start) of a lagged contact.
Vec2 slip(const PairFriction& f, const Vec12& x) {
  Vec3 r = Vec3::Zero();
  for (int k = 0; k < f.stencil.count; ++k) r += f.weights[k] * (x.segment<3>(3 * k) - f.x_start[k]);
  return f.tangent.transpose() * r;
}

/// D = μλ f₀(‖u‖) in stacked vertex positions: ∂u/∂x_k = w_k Tᵀ; its Hessian the exact one or the
/// majorizer, as the contact's slip history says (friction.hpp).
StencilDerivatives friction_derivatives(const PairFriction& f, const Vec12& x, double eps) {
  const Vec2 u = slip(f, x);
  const FrictionStencil fs = friction_potential(u, f.mu_lambda, eps, friction_newton_form(u, eps, f.history));
  StencilDerivatives d;
  d.value = fs.value;
  const Vec3 g = f.tangent * fs.gradient;
  const Mat3 H = f.tangent * fs.hessian * f.tangent.transpose();
  for (int k = 0; k < f.stencil.count; ++k) {
    d.gradient.segment<3>(3 * k) = f.weights[k] * g;
    for (int l = 0; l < f.stencil.count; ++l) d.hessian.block<3, 3>(3 * k, 3 * l) = f.weights[k] * f.weights[l] * H;
  }
  return d;
}

Eigen::Matrix<double, 3, 2> tangent_basis(const Vec3& n) {
  Eigen::Matrix<double, 3, 2> T;
  T.col(0) = any_perpendicular(n);
  T.col(1) = n.cross(T.col(0));
  return T;
}

}  // namespace

BodyContactModel::BodyContactModel(const std::vector<AffineBody>& bodies, double dhat)
    : bodies_(bodies),
      layout_(affine_layout(bodies)),
      edges_(body_edges(bodies)),
      dhat_(dhat),
      broad_phase_(bodies, layout_, edges_, dhat) {}

void BodyContactModel::update_candidates(const VecX& q, const VecX* dq) {
  if (!dq && proximity_q_.size() == q.size() && proximity_q_ == q) {
    if (!candidates_are_proximity_) {  // back from a sweep to the state of the last proximity build
      previous_candidates_.swap(candidates_);
      candidates_ = proximity_candidates_;
      keep_reductions();
      candidates_are_proximity_ = true;
    }
    return;
  }
  ++candidate_builds_;
  x_.move_to(bodies_, layout_, q);
  previous_candidates_.swap(candidates_);
  if (!dq) {
    candidates_ = broad_phase_.update(q, nullptr, x_.vertices(), nullptr);
    proximity_q_ = q;
    proximity_candidates_ = candidates_;
    candidates_are_proximity_ = true;
  } else {
    q_end_ = q + *dq;
    x_end_.move_to(bodies_, layout_, q_end_);
    candidates_ = broad_phase_.update(q, &q_end_, x_.vertices(), &x_end_.vertices());
    candidates_are_proximity_ = false;
  }
  keep_reductions();
}

// The reductions of candidates in both lists stay valid while their bodies' vertex stamps do: a new
// list at the point of the last evaluation (each Newton iteration's sweep) reduces only what is new.
void BodyContactModel::keep_reductions() {
  std::swap(reduced_, previous_reduced_);
  reduced_.reset(candidates_.size(), dhat_);
  reduced_.keep_matching(previous_reduced_, previous_candidates_, candidates_);
}

std::vector<std::array<int, 2>> BodyContactModel::candidate_body_pairs() const {
  std::vector<std::array<int, 2>> pairs;
  for (const ContactCandidate& c : candidates_) {
    const std::array<int, 2> p{std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)};
    if (pairs.empty() || pairs.back()[0] != p[0] || pairs.back()[1] != p[1]) pairs.push_back(p);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

std::vector<ContactStencil> BodyContactModel::active_at(const VecX& q, const std::vector<char>* touching) const {
  x_.move_to(bodies_, layout_, q);
  const auto wanted = [&](const ContactCandidate& c) {
    return !touching || (*touching)[c.body_a] || (*touching)[c.body_b];
  };
  tbb::parallel_for(0, static_cast<int>(candidates_.size()), [&](int k) {
    if (wanted(candidates_[k])) reduced_.reduce(k, candidates_[k], bodies_, edges_, x_);
  });
  std::vector<ContactStencil> active;
  for (int k = 0; k < static_cast<int>(candidates_.size()); ++k)
    if (wanted(candidates_[k]) && reduced_.squared_distance(k) < dhat_ * dhat_) active.push_back(reduced_.stencil(k));
  merge_stencils(active);
  return active;
}

// Σ over candidates of κ b: the same sum as over merged stencils with their multiplicity (each of the
// k candidates that reduce to one stencil adds the same term), without sorting at every trial point.
void BodyContactModel::add_energies(const VecX& q, double kappa, double beta_h2,
                                    const std::vector<PairFriction>& friction, double eps,
                                    const std::vector<char>& include, std::vector<double>& per_body) const {
  if (candidates_.empty() && friction.empty()) return;
  x_.move_to(bodies_, layout_, q);
  const WorldVertices& x = x_.vertices();
  const auto add = [&](const ContactStencil& s, double value) {
    const int owner = include[s.body_a()] ? s.body_a() : s.body_b();
    if (include[owner]) per_body[owner] += beta_h2 * value;
  };
  const int count = static_cast<int>(candidates_.size());
  scratch_.assign(count, 0.0);
  tbb::parallel_for(0, count, [&](int k) {
    const ContactCandidate& c = candidates_[k];
    if (!include[c.body_a] && !include[c.body_b]) return;
    reduced_.reduce(k, c, bodies_, edges_, x_);
    if (reduced_.squared_distance(k) >= dhat_ * dhat_) return;
    const ContactStencil& s = reduced_.stencil(k);
    scratch_[k] = stencil_barrier_value(s, stencil_positions(s, x), reduced_.squared_distance(k), dhat_, kappa);
  });
  for (int k = 0; k < count; ++k)  // candidate order: deterministic sums
    if (scratch_[k] != 0.0) add(reduced_.stencil(k), scratch_[k]);
  for (const PairFriction& f : friction)
    add(f.stencil, friction_potential(slip(f, stencil_positions(f.stencil, x)), f.mu_lambda, eps).value);
}

void BodyContactModel::add_derivatives(const VecX& q, double kappa, double beta_h2,
                                       const std::vector<PairFriction>& friction, double eps,
                                       VecX& gradient, BlockHessian& H, const std::vector<char>* touching) const {
  if (candidates_.empty() && friction.empty()) return;
  const std::vector<ContactStencil> stencils = active_at(q, touching);
  const WorldVertices& x = x_.vertices();
  std::vector<int> lagged;  // the friction contacts to evaluate
  for (int k = 0; k < static_cast<int>(friction.size()); ++k) {
    const ContactStencil& s = friction[k].stencil;
    if (!touching || (*touching)[s.body_a()] || (*touching)[s.body_b()]) lagged.push_back(k);
  }
  const int n_barrier = static_cast<int>(stencils.size());
  std::vector<StencilBodyTerms> terms(n_barrier + lagged.size());
  tbb::parallel_for(0, static_cast<int>(terms.size()), [&](int k) {
    if (k < n_barrier) {
      terms[k] = projected_barrier(stencils[k], bodies_, x, dhat_, kappa);
    } else {
      const PairFriction& f = friction[lagged[k - n_barrier]];
      // PSD by construction (friction.hpp), and so is its congruence map.
      terms[k] = to_bodies(f.stencil, bodies_, friction_derivatives(f, stencil_positions(f.stencil, x), eps));
    }
  });
  for (const StencilBodyTerms& t : terms) {  // in stencil order: deterministic sums
    add_stencil_gradient(t, beta_h2, layout_, gradient);
    add_stencil_hessian(t, beta_h2, H);
  }
}

void BodyContactModel::add_damping_hessian(const VecX& q, double kappa, BlockHessian& K) const {
  if (candidates_.empty()) return;
  const std::vector<ContactStencil> stencils = active_at(q, nullptr);
  for (const ContactStencil& s : stencils) {
    const double k_d = std::max(bodies_[s.body_a()].damping, bodies_[s.body_b()].damping);
    if (k_d != 0.0) add_stencil_hessian(projected_barrier(s, bodies_, x_.vertices(), dhat_, kappa), k_d, K);
  }
}

void BodyContactModel::add_barrier_gradient(const VecX& q, double beta_h2, VecX& gradient) const {
  if (candidates_.empty()) return;
  const std::vector<ContactStencil> stencils = active_at(q, nullptr);
  const WorldVertices& x = x_.vertices();
  for (const ContactStencil& s : stencils) {
    add_stencil_gradient(to_bodies(s, bodies_, stencil_barrier(s, stencil_positions(s, x), dhat_, 1.0)), beta_h2,
                         layout_, gradient);
  }
}

// ACCD on every candidate with a flagged body, in increasing order of each query's lower bound
// (additive_ccd.hpp: its first step, from the candidate's cached distance at q — the line search has
// just evaluated its energy there — or its boxes' gap). A query whose lower bound is at or above the
// running bound of both its bodies could lower neither, so it is skipped: a near pair, whose ACCD
// measures distances step after step, often is once the closest pair of its bodies has set the bound
// (ACCD fell from 22 % to 15 % of the ragdoll's time, README). Every body's bound is the minimum over all its queries all the same, bit for bit, whatever
// the order and the thread count (the decisions are taken on the bounds at the start of each batch).
std::vector<double> BodyContactModel::max_steps(const VecX& q, const VecX& dq, const std::vector<char>* touching) const {
  std::vector<double> per_body(bodies_.size(), 1.0);
  if (candidates_.empty()) return per_body;
  x_.move_to(bodies_, layout_, q);
  q_end_ = q + dq;
  x_end_.move_to(bodies_, layout_, q_end_);  // nothing to do right after the sweep over the same dq
  const WorldVertices &x0 = x_.vertices(), &x1 = x_end_.vertices();
  const auto pos = [&](int body, int v) -> const Vec3& { return x0[body][v]; };
  const auto disp = [&](int body, int v) { return Vec3(x1[body][v] - x0[body][v]); };
  // The lower bound of candidate k's time of impact (bound_only), or the time of impact itself. A
  // reduced stencil's distance never exceeds its primitives' (a line, a plane contain the segment, the
  // triangle), and a bounded candidate's is its boxes' gap: either is a lower bound of d₀.
  const auto query = [&](int k, bool bound_only) {
    const ContactCandidate& c = candidates_[k];
    double distance = 0.0;
    if (bound_only) {
      reduced_.reduce(k, c, bodies_, edges_, x_);
      distance = std::sqrt(reduced_.squared_distance(k));
    }
    if (c.kind == CandidateKind::vertex_face) {
      const auto& f = bodies_[c.body_b].mesh->faces[c.prim_b];
      const Vec3 &p = pos(c.body_a, c.prim_a), &t0 = pos(c.body_b, f[0]), &t1 = pos(c.body_b, f[1]),
                 &t2 = pos(c.body_b, f[2]);
      const Vec3 dp = disp(c.body_a, c.prim_a), dt0 = disp(c.body_b, f[0]), dt1 = disp(c.body_b, f[1]),
                 dt2 = disp(c.body_b, f[2]);
      return bound_only ? point_triangle_accd_lower_bound(p, t0, t1, t2, dp, dt0, dt1, dt2, distance)
                        : point_triangle_accd(p, t0, t1, t2, dp, dt0, dt1, dt2).toi;
    }
    const auto& ea = edges_[c.body_a][c.prim_a];
    const auto& eb = edges_[c.body_b][c.prim_b];
    const Vec3 &a0 = pos(c.body_a, ea[0]), &a1 = pos(c.body_a, ea[1]), &b0 = pos(c.body_b, eb[0]),
               &b1 = pos(c.body_b, eb[1]);
    const Vec3 da0 = disp(c.body_a, ea[0]), da1 = disp(c.body_a, ea[1]), db0 = disp(c.body_b, eb[0]),
               db1 = disp(c.body_b, eb[1]);
    return bound_only ? edge_edge_accd_lower_bound(a0, a1, b0, b1, da0, da1, db0, db1, distance)
                      : edge_edge_accd(a0, a1, b0, b1, da0, da1, db0, db1).toi;
  };
  const int count = static_cast<int>(candidates_.size());
  scratch_.resize(count);
  order_.clear();
  for (int k = 0; k < count; ++k)
    if (!touching || (*touching)[candidates_[k].body_a] || (*touching)[candidates_[k].body_b]) order_.push_back(k);
  tbb::parallel_for(0, static_cast<int>(order_.size()), [&](int i) { scratch_[order_[i]] = query(order_[i], true); });
  std::sort(order_.begin(), order_.end(),
            [&](int a, int b) { return scratch_[a] != scratch_[b] ? scratch_[a] < scratch_[b] : a < b; });
  // Batches of growing size: the first ones, with the smallest bounds, set the bodies' bounds early.
  constexpr int kFirstBatch = 16;
  toi_.resize(order_.size());
  for (int start = 0, size = kFirstBatch; start < static_cast<int>(order_.size()); start += size, size *= 2) {
    const int stop = std::min(start + size, static_cast<int>(order_.size()));
    tbb::parallel_for(start, stop, [&](int i) {
      const int k = order_[i];
      // Skipped (1: no bound) when its lower bound is at or above both bodies' running bounds.
      const double running = std::max(per_body[candidates_[k].body_a], per_body[candidates_[k].body_b]);
      toi_[i] = scratch_[k] >= running ? 1.0 : query(k, false);
    });
    for (int i = start; i < stop; ++i) {
      const ContactCandidate& c = candidates_[order_[i]];
      per_body[c.body_a] = std::min(per_body[c.body_a], toi_[i]);
      per_body[c.body_b] = std::min(per_body[c.body_b], toi_[i]);
    }
  }
  return per_body;
}

std::vector<PairFriction> BodyContactModel::lag_friction(const VecX& q_lag, const VecX& q_start,
                                                         double kappa) const {
  std::vector<PairFriction> out;
  if (candidates_.empty()) return out;
  const std::vector<ContactStencil> stencils = active_at(q_lag, nullptr);
  const WorldVertices& x = x_.vertices();
  const WorldVertices x_start = world_vertices(bodies_, layout_, q_start);
  for (const ContactStencil& s : stencils) {
    // Friction coefficient of a pair: geometric mean of the two (DESIGN §3).
    const double mu = std::sqrt(bodies_[s.body_a()].friction * bodies_[s.body_b()].friction);
    if (mu == 0.0) continue;
    const Vec12 positions = stencil_positions(s, x);
    PairFriction f;
    f.stencil = s;
    f.weights = stencil_closest_point_weights(s, positions);
    Vec3 separation = Vec3::Zero();
    for (int k = 0; k < s.count; ++k) separation += f.weights[k] * positions.segment<3>(3 * k);
    const double d = separation.norm();
    if (d == 0.0) continue;
    f.tangent = tangent_basis(separation / d);
    // λ of the stencil's whole barrier term, all its candidates together.
    f.mu_lambda = mu * -s.multiplicity * kappa * barrier_first_derivative(d, dhat_);
    for (int k = 0; k < s.count; ++k) f.x_start[k] = x_start[s.v[k].body][s.v[k].vertex];
    out.push_back(f);
  }
  return out;
}

BodyContactModel::Proximity BodyContactModel::min_distance(const VecX& q) const {
  Proximity p{std::numeric_limits<double>::infinity()};
  if (candidates_.empty()) return p;
  // Every candidate's distance is that of its reduced form; the active count is of merged stencils.
  p.active = static_cast<int>(active_at(q, nullptr).size());
  const int count = static_cast<int>(candidates_.size());
  const auto consider = [&](int k) {
    const double d = std::sqrt(reduced_.squared_distance(k));
    if (d < p.min_distance) {
      const ContactStencil& s = reduced_.stencil(k);
      p.min_distance = d, p.closest = {s.v[0].body, s.v[s.count - 1].body};
    }
  };
  for (int k = 0; k < count; ++k)
    if (reduced_.exact(k)) consider(k);
  // Candidates only bounded (at least d̂ apart) are measured where the bound could still win.
  for (int k = 0; k < count; ++k) {
    if (reduced_.exact(k) || !(std::sqrt(reduced_.squared_distance(k)) < p.min_distance)) continue;
    reduced_.reduce_exactly(k, candidates_[k], bodies_, edges_, x_);
    consider(k);
  }
  return p;
}

std::vector<ContactRecord> BodyContactModel::contact_records(const VecX& q, double kappa) const {
  std::vector<ContactRecord> out;
  const WorldVertices x = world_vertices(bodies_, layout_, q);
  const std::vector<ContactCandidate> candidates = find_contact_candidates(bodies_, edges_, x, nullptr, dhat_);
  if (candidates.empty()) return out;
  for (const ContactStencil& s : active_stencils(bodies_, edges_, candidates, x, dhat_)) {
    const Vec12 positions = stencil_positions(s, x);
    const double d = std::sqrt(stencil_squared_distance_value(s, positions));
    // Σ w_k x_k = (side a's closest point) − (side b's): the point side (one vertex, or edge a) has
    // the positive weights, the feature side (or edge b) the negative ones.
    const std::array<double, 4> w = stencil_closest_point_weights(s, positions);
    const int split = s.form == StencilForm::edge_edge ? 2 : 1;
    Vec3 on_a = Vec3::Zero(), on_b = Vec3::Zero();
    for (int k = 0; k < s.count; ++k) {
      if (k < split) on_a += w[k] * positions.segment<3>(3 * k);
      else on_b -= w[k] * positions.segment<3>(3 * k);
    }
    double m = 1.0;
    if (s.form == StencilForm::edge_edge) {
      m = edge_edge_mollifier(positions.segment<3>(0), positions.segment<3>(3), positions.segment<3>(6),
                              positions.segment<3>(9), s.mollifier_threshold);
    }
    const Vec3 separation = on_a - on_b;  // from b towards a
    ContactRecord r;
    const bool a_first = s.body_a() < s.body_b();
    r.body1 = a_first ? s.body_a() : s.body_b();
    r.body2 = a_first ? s.body_b() : s.body_a();
    r.point = 0.5 * (on_a + on_b);
    const double length = separation.norm();
    if (length > 0.0) r.normal = (a_first ? 1.0 : -1.0) * separation / length;
    r.distance = d;
    r.force = m * s.multiplicity * kappa * -barrier_first_derivative(d, dhat_);
    out.push_back(r);
  }
  return out;
}

}  // namespace affix
