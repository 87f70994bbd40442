#include "affix/solvers/contact/contact_evaluation.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <initializer_list>
#include <limits>

namespace affix {

void VertexCache::move_to(const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q) {
  const int n = static_cast<int>(bodies.size());
  if (static_cast<int>(q_.size()) != n) {
    q_.assign(n, Vec12::Constant(std::numeric_limits<double>::quiet_NaN()));
    stamp_.assign(n, 0);
    x_.assign(n, {});
  }
  // Stamps are unique across bodies and calls: a body's next stamp is the clock plus its index.
  const std::uint64_t base = clock_;
  clock_ += static_cast<std::uint64_t>(n);
  tbb::parallel_for(0, n, [&](int i) {
    const auto qi = layout.segment<kAffineDofs>(q, i);
    if ((qi.array() == q_[i].array()).all()) return;  // NaN never compares equal: first call computes
    q_[i] = qi;
    const auto& rest = bodies[i].mesh->vertices;
    x_[i].resize(rest.size());
    for (std::size_t v = 0; v < rest.size(); ++v) x_[i][v] = world_point(q_[i], rest[v]);
    stamp_[i] = base + static_cast<std::uint64_t>(i) + 1;
  });
}

void CandidateEvaluation::reset(std::size_t candidate_count, double cutoff) {
  stencils_.resize(candidate_count);
  squared_distances_.resize(candidate_count);
  exact_.assign(candidate_count, 0);
  stamps_.assign(candidate_count, {0, 0});
  cutoff_ = cutoff;
}

namespace {

/// The gap between the bounding boxes of candidate c's two primitives at x: a lower bound of their
/// distance (every point of a primitive lies in the box of its vertices).
double primitive_box_gap(const ContactCandidate& c, const std::vector<AffineBody>& bodies,
                         const std::vector<std::vector<std::array<int, 2>>>& edges, const WorldVertices& x) {
  Vec3 a_lo, a_hi, b_lo, b_hi;
  const auto box = [](const std::vector<Vec3>& points, std::initializer_list<int> indices, Vec3& lo, Vec3& hi) {
    lo = hi = points[*indices.begin()];
    for (int v : indices) lo = lo.cwiseMin(points[v]), hi = hi.cwiseMax(points[v]);
  };
  if (c.kind == CandidateKind::vertex_face) {
    const auto& f = bodies[c.body_b].mesh->faces[c.prim_b];
    a_lo = a_hi = x[c.body_a][c.prim_a];
    box(x[c.body_b], {f[0], f[1], f[2]}, b_lo, b_hi);
  } else {
    const auto& ea = edges[c.body_a][c.prim_a];
    const auto& eb = edges[c.body_b][c.prim_b];
    box(x[c.body_a], {ea[0], ea[1]}, a_lo, a_hi);
    box(x[c.body_b], {eb[0], eb[1]}, b_lo, b_hi);
  }
  return (b_lo - a_hi).cwiseMax(a_lo - b_hi).cwiseMax(0.0).norm();
}

}  // namespace

void CandidateEvaluation::reduce(int k, const ContactCandidate& c, const std::vector<AffineBody>& bodies,
                                 const std::vector<std::vector<std::array<int, 2>>>& edges, const VertexCache& x) {
  const std::uint64_t a = x.stamp(c.body_a), b = x.stamp(c.body_b);
  if (stamps_[k][0] == a && stamps_[k][1] == b) return;
  stamps_[k] = {a, b};
  const double gap = primitive_box_gap(c, bodies, edges, x.vertices());
  if (gap >= cutoff_) {
    squared_distances_[k] = gap * gap;
    exact_[k] = 0;
    return;
  }
  stencils_[k] = reduce_candidate(bodies, edges, c, x.vertices());
  squared_distances_[k] = stencil_squared_distance_value(stencils_[k], stencil_positions(stencils_[k], x.vertices()));
  exact_[k] = 1;
}

void CandidateEvaluation::keep_matching(const CandidateEvaluation& previous,
                                        const std::vector<ContactCandidate>& previous_list,
                                        const std::vector<ContactCandidate>& list) {
  // find_contact_candidates lists body pair by body pair, ascending, each pair's candidates sorted: a
  // merge walk in that order finds every candidate the two lists share. (Were the order other, a
  // match would only be missed, never wrong: equality is checked.)
  const auto before = [](const ContactCandidate& c, const ContactCandidate& d) {
    const auto pc = std::minmax(c.body_a, c.body_b), pd = std::minmax(d.body_a, d.body_b);
    return pc != pd ? pc < pd : c < d;
  };
  std::size_t i = 0;
  for (std::size_t k = 0; k < list.size() && i < previous_list.size(); ++k) {
    while (i < previous_list.size() && before(previous_list[i], list[k])) ++i;
    if (i == previous_list.size() || !(previous_list[i] == list[k])) continue;
    stencils_[k] = previous.stencils_[i];
    squared_distances_[k] = previous.squared_distances_[i];
    exact_[k] = previous.exact_[i];
    stamps_[k] = previous.stamps_[i];
  }
}

void CandidateEvaluation::reduce_exactly(int k, const ContactCandidate& c, const std::vector<AffineBody>& bodies,
                                         const std::vector<std::vector<std::array<int, 2>>>& edges,
                                         const VertexCache& x) {
  reduce(k, c, bodies, edges, x);
  if (exact_[k]) return;
  stencils_[k] = reduce_candidate(bodies, edges, c, x.vertices());
  squared_distances_[k] = stencil_squared_distance_value(stencils_[k], stencil_positions(stencils_[k], x.vertices()));
  exact_[k] = 1;
}

}  // namespace affix
