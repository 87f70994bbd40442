#include "affix/solvers/ipc/joint_forest.hpp"

#include <algorithm>
#include <numeric>

namespace affix {
namespace {

int find(std::vector<int>& set, int x) {
  while (set[x] != x) x = set[x] = set[set[x]];
  return x;
}

}  // namespace

JointForest::JointForest(const DofLayout& layout, const std::vector<SparseRow>& rows) {
  const int n = layout.body_count();
  parent_.assign(n, -1);
  parent_rows_.assign(n, 0);
  rows_of_.assign(n, {});

  // Each row's bodies: one (unary) or two (an edge).
  std::vector<std::vector<int>> unary(n);
  struct EdgeRow {
    int a, b, row;  // a < b
  };
  std::vector<EdgeRow> edge_rows;
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    int first = -1, second = -1;
    for (const auto& [dof, coefficient] : rows[r].terms) {
      const int b = layout.body_of(dof);
      if (b == first || b == second) continue;
      if (first < 0) first = b;
      else if (second < 0) second = b;
      else {
        why_ = "a joint row moves three or more bodies";
        return;
      }
    }
    if (first < 0) continue;  // no terms: nothing to own
    if (second < 0) unary[first].push_back(r);
    else edge_rows.push_back({std::min(first, second), std::max(first, second), r});
  }
  std::stable_sort(edge_rows.begin(), edge_rows.end(),
                   [](const EdgeRow& x, const EdgeRow& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });

  // Distinct pairs as edges; union-find finds the pair that closes a loop.
  std::vector<int> set(n);
  std::iota(set.begin(), set.end(), 0);
  std::vector<std::vector<std::pair<int, int>>> adjacent(n);  // (neighbour, first index into edge_rows)
  for (std::size_t k = 0; k < edge_rows.size(); ++k) {
    if (k > 0 && edge_rows[k].a == edge_rows[k - 1].a && edge_rows[k].b == edge_rows[k - 1].b) continue;
    const int a = edge_rows[k].a, b = edge_rows[k].b;
    const int ra = find(set, a), rb = find(set, b);
    if (ra == rb) {
      why_ = "the joints close a loop";
      return;
    }
    set[ra] = rb;
    adjacent[a].emplace_back(b, static_cast<int>(k));
    adjacent[b].emplace_back(a, static_cast<int>(k));
  }

  // Root each group at its body with the most unary rows (the lowest index among equals), then walk it
  // breadth first: reversed, that order has children before parents.
  std::vector<int> root_of(n, -1);
  for (int b = 0; b < n; ++b) {
    const int r = find(set, b);
    if (root_of[r] < 0 || unary[b].size() > unary[root_of[r]].size()) root_of[r] = b;
  }
  std::vector<char> seen(n, 0);
  std::vector<int> order;
  order.reserve(n);
  for (int b = 0; b < n; ++b) {
    const int root = root_of[find(set, b)];
    if (seen[root]) continue;
    seen[root] = 1;
    std::size_t head = order.size();
    order.push_back(root);
    while (head < order.size()) {
      const int v = order[head++];
      for (const auto& [w, k] : adjacent[v]) {
        if (seen[w]) continue;
        seen[w] = 1, parent_[w] = v;
        for (std::size_t e = k; e < edge_rows.size() && edge_rows[e].a == edge_rows[k].a &&
                                edge_rows[e].b == edge_rows[k].b;
             ++e)
          rows_of_[w].push_back(edge_rows[e].row);
        order.push_back(w);
      }
    }
  }
  leaves_first_.assign(order.rbegin(), order.rend());

  for (int b = 0; b < n; ++b) {
    std::sort(rows_of_[b].begin(), rows_of_[b].end());
    parent_rows_[b] = static_cast<int>(rows_of_[b].size());
    rows_of_[b].insert(rows_of_[b].end(), unary[b].begin(), unary[b].end());
    if (rows_of_[b].size() > static_cast<std::size_t>(kAffineDofs)) {
      why_ = "a body owns more than 12 joint rows (redundant rows)";
      return;
    }
  }
}

}  // namespace affix
