#pragma once
// Sort-and-sweep over axis-aligned boxes (Baraff 1992; Cohen et al. 1995, I-COLLIDE): the broad phase
// of the start-of-simulation intersection check, both between bodies and between the primitives of
// two meshes. Sorting by the lower bound along one axis means box j can overlap box i (j after i) only
// if min_j ≤ max_i along that axis, so each box scans forward until that fails and checks the other
// two axes of those few. Cost O(n log n + k), k the pairs whose intervals overlap along the axis.
#include <algorithm>
#include <span>
#include <vector>

#include "affix/geometry/aabb.hpp"

namespace affix {

/// Calls visit(i, j), i < j indices into `boxes`, for every pair of intersecting boxes (closed boxes:
/// touching counts; empty boxes are skipped), sweeping along `axis` (0, 1 or 2). `visit` returns true
/// to stop early; the function returns whether it was stopped. The visiting order is unspecified.
template <typename Visit>
bool for_each_overlapping_pair(std::span<const Aabb> boxes, int axis, Visit&& visit) {
  std::vector<int> order;
  order.reserve(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (!boxes[i].is_empty()) {
      order.push_back(static_cast<int>(i));
    }
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return boxes[a].min[axis] < boxes[b].min[axis] || (boxes[a].min[axis] == boxes[b].min[axis] && a < b);
  });
  for (std::size_t s = 0; s < order.size(); ++s) {
    const Aabb& box = boxes[order[s]];
    for (std::size_t t = s + 1; t < order.size() && boxes[order[t]].min[axis] <= box.max[axis]; ++t) {
      if (box.intersects(boxes[order[t]]) && visit(std::min(order[s], order[t]), std::max(order[s], order[t]))) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace affix
