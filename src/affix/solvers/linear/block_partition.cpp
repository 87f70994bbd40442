#include "affix/solvers/linear/block_partition.hpp"

#include <numeric>

namespace affix {
namespace {

int root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];  // path halving
  return i;
}

}  // namespace

void partition_blocks(const BlockHessian& H, BlockPartition& out) {
  const int n = H.block_count();
  const auto& couplings = H.couplings();
  out.held.assign(n, 1);
  for (const auto& [key, block] : couplings)
    if (!block.isZero(0.0)) out.held[key.first] = out.held[key.second] = 0;
  for (int i = 0; i < n; ++i)
    if (out.held[i] && H.diagonal(i) != BlockHessian::Block::Identity()) out.held[i] = 0;

  // Union–find over the declared couplings between blocks that are not held (structural: a zero block
  // between two solved blocks stays in the pattern, so the pattern does not flicker with the values).
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& [key, block] : couplings) {
    if (out.held[key.first] || out.held[key.second]) continue;
    const int a = root(parent, key.first), b = root(parent, key.second);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the smallest block
  }
  std::vector<int> component_of(n, -1);
  std::size_t count = 0;
  for (int i = 0; i < n; ++i) {
    if (out.held[i]) continue;
    const int r = root(parent, i);
    if (component_of[r] < 0) {
      component_of[r] = static_cast<int>(count++);
      if (out.components.size() < count) out.components.resize(count), out.couplings.resize(count);
      out.components[count - 1].clear();
      out.couplings[count - 1].clear();
    }
    out.components[component_of[r]].push_back(i);
  }
  out.components.resize(count);
  out.couplings.resize(count);
  for (int c = 0; c < static_cast<int>(couplings.size()); ++c) {
    const auto& key = couplings[c].first;
    if (out.held[key.first] || out.held[key.second]) continue;
    out.couplings[component_of[root(parent, key.first)]].push_back(c);
  }
}

}  // namespace affix
