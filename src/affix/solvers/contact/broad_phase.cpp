#include "affix/solvers/contact/broad_phase.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

#include "affix/body/collision_filter.hpp"

namespace affix {

BroadPhase::BroadPhase(const std::vector<AffineBody>& bodies, const DofLayout& layout,
                       const std::vector<std::vector<std::array<int, 2>>>& edges, double margin)
    : bodies_(bodies), layout_(layout), edges_(edges), margin_(margin) {
  const int n = static_cast<int>(bodies.size());
  q0_.assign(n, Vec12::Constant(std::numeric_limits<double>::quiet_NaN()));
  q1_ = q0_;
  boxes_.resize(n);
  prims_.resize(n);
  prims_valid_.assign(n, 0);
  changed_.assign(n, 1);
  first_.assign(1, 0);
}

const std::vector<ContactCandidate>& BroadPhase::update(const VecX& q, const VecX* q_end, const WorldVertices& x0,
                                                        const WorldVertices* x1) {
  const int n = static_cast<int>(bodies_.size());
  // Stage 1: the boxes of the bodies whose states changed (NaN never compares equal: first call).
  tbb::parallel_for(0, n, [&](int i) {
    const auto a = layout_.segment<kAffineDofs>(q, i);
    const auto b = q_end ? layout_.segment<kAffineDofs>(*q_end, i) : a;
    changed_[i] = !((a.array() == q0_[i].array()).all() && (b.array() == q1_[i].array()).all());
    if (!changed_[i]) return;
    q0_[i] = a, q1_[i] = b;
    boxes_[i] = body_box(x0[i], x1 ? &(*x1)[i] : nullptr, margin_);
    prims_valid_[i] = 0;
  });

  // Stage 2: body pairs; stage 3 only for pairs with a changed body (or new ones).
  sweep_and_prune();
  needed_.clear();
  for (const auto& [a, b] : next_pairs_) {
    for (int i : {a, b}) {
      if (!prims_valid_[i]) {
        prims_valid_[i] = 1;  // set once here, computed below
        needed_.push_back(i);
      }
    }
  }
  tbb::parallel_for(0, static_cast<int>(needed_.size()), [&](int k) {
    const int i = needed_[k];
    primitive_boxes(bodies_[i], edges_[i], x0[i], x1 ? &(*x1)[i] : nullptr, margin_, prims_[i]);
  });

  const int pair_count = static_cast<int>(next_pairs_.size());
  source_.resize(pair_count);
  fresh_pairs_.clear();
  std::size_t old = 0;  // both pair lists are sorted: a merge walk finds the kept pairs
  for (int k = 0; k < pair_count; ++k) {
    const auto& [a, b] = next_pairs_[k];
    while (old < pairs_.size() && pairs_[old] < next_pairs_[k]) ++old;
    if (old < pairs_.size() && pairs_[old] == next_pairs_[k] && !changed_[a] && !changed_[b]) {
      source_[k] = static_cast<int>(old);
    } else {
      source_[k] = -1 - static_cast<int>(fresh_pairs_.size());
      fresh_pairs_.push_back(k);
    }
  }
  if (fresh_.size() < fresh_pairs_.size()) fresh_.resize(fresh_pairs_.size());
  tbb::parallel_for(0, static_cast<int>(fresh_pairs_.size()), [&](int slot) {
    const auto& [a, b] = next_pairs_[fresh_pairs_[slot]];
    fresh_[slot].clear();
    pair_candidates(a, b, boxes_[a], boxes_[b], prims_[a], prims_[b], fresh_[slot]);
  });

  next_candidates_.clear();
  next_first_.resize(pair_count + 1);
  for (int k = 0; k < pair_count; ++k) {
    next_first_[k] = static_cast<int>(next_candidates_.size());
    if (source_[k] >= 0) {
      const int s = source_[k];
      next_candidates_.insert(next_candidates_.end(), candidates_.begin() + first_[s], candidates_.begin() + first_[s + 1]);
    } else {
      const std::vector<ContactCandidate>& list = fresh_[-1 - source_[k]];
      next_candidates_.insert(next_candidates_.end(), list.begin(), list.end());
    }
  }
  next_first_[pair_count] = static_cast<int>(next_candidates_.size());
  paired_pairs_ = static_cast<int>(fresh_pairs_.size());
  kept_pairs_ = pair_count - paired_pairs_;
  pairs_.swap(next_pairs_);
  first_.swap(next_first_);
  candidates_.swap(next_candidates_);
  return candidates_;
}

// Sort-and-sweep along x (as for_each_overlapping_pair, sweep_and_prune.hpp), with the order kept from
// the last call and restored by insertion sort: O(n) when few boxes moved past one another.
void BroadPhase::sweep_and_prune() {
  const auto before = [&](int a, int b) {
    return boxes_[a].min.x() < boxes_[b].min.x() || (boxes_[a].min.x() == boxes_[b].min.x() && a < b);
  };
  if (order_.size() != bodies_.size()) {
    order_.resize(bodies_.size());
    for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(), before);
  } else {
    for (std::size_t s = 1; s < order_.size(); ++s) {
      const int body = order_[s];
      std::size_t t = s;
      for (; t > 0 && before(body, order_[t - 1]); --t) order_[t] = order_[t - 1];
      order_[t] = body;
    }
  }
  next_pairs_.clear();
  for (std::size_t s = 0; s < order_.size(); ++s) {
    const Aabb& box = boxes_[order_[s]];
    if (box.is_empty()) continue;  // no vertices: nothing to touch (empty boxes sort last)
    for (std::size_t t = s + 1; t < order_.size() && boxes_[order_[t]].min.x() <= box.max.x(); ++t) {
      const int i = std::min(order_[s], order_[t]), j = std::max(order_[s], order_[t]);
      if (box.intersects(boxes_[order_[t]]) && may_collide(bodies_, i, j)) next_pairs_.push_back({i, j});
    }
  }
  std::sort(next_pairs_.begin(), next_pairs_.end());
}

}  // namespace affix
