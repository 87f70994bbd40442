#include "affix/solvers/contact/contact_evaluation.hpp"

#include <tbb/parallel_for.h>

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

void CandidateEvaluation::reset(std::size_t candidate_count) {
  stencils_.resize(candidate_count);
  squared_distances_.resize(candidate_count);
  stamps_.assign(candidate_count, {0, 0});
}

void CandidateEvaluation::reduce(int k, const ContactCandidate& c, const std::vector<AffineBody>& bodies,
                                 const std::vector<std::vector<std::array<int, 2>>>& edges, const VertexCache& x) {
  const std::array<std::uint64_t, 2> now{x.stamp(c.body_a), x.stamp(c.body_b)};
  if (stamps_[k] == now) return;
  stencils_[k] = reduce_candidate(bodies, edges, c, x.vertices());
  squared_distances_[k] = stencil_squared_distance_value(stencils_[k], stencil_positions(stencils_[k], x.vertices()));
  stamps_[k] = now;
}

}  // namespace affix
