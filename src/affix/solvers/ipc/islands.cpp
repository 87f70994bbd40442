#include "affix/solvers/ipc/islands.hpp"

#include <numeric>

namespace affix {

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];  // path halving
  return i;
}

std::vector<Island> connected_islands(const std::vector<AffineBody>& bodies,
                                      const std::vector<std::array<int, 2>>& pairs) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& [a, b] : pairs) {
    if (bodies[a].is_dirichlet() || bodies[b].is_dirichlet()) continue;
    const int ra = find_root(parent, a), rb = find_root(parent, b);
    if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  std::vector<int> island_of_root(n, -1);
  std::vector<Island> islands;
  for (int i = 0; i < n; ++i) {
    if (bodies[i].is_dirichlet()) continue;
    const int r = find_root(parent, i);
    if (island_of_root[r] < 0) {
      island_of_root[r] = static_cast<int>(islands.size());
      islands.emplace_back();
    }
    islands[island_of_root[r]].push_back(i);
  }
  return islands;
}

}  // namespace affix
