// Islands (islands.hpp): the connected components of the dynamic bodies under the given body pairs,
// against a breadth-first search on random graphs with fixed and kinematic bodies (which join no
// island and link nothing); the union-find root with path halving; and safe_island_move
// (newton_solver.hpp) on a case with a closed-form answer: one island stopped by the ground's linear
// CCD at α = (d₀ − s·d₀)/(d₀ − d₁) (point_plane_ccd.hpp, s = 0.1) carries its stacked partner with it,
// while a body in another island takes its whole move.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <queue>
#include <random>

#include "affix/geometry/primitives.hpp"
#include "affix/solvers/ipc/islands.hpp"
#include "affix/solvers/ipc/newton_solver.hpp"

namespace affix {
namespace {

using Pairs = std::vector<std::array<int, 2>>;

/// Components by BFS over the pairs whose two bodies are dynamic; Dirichlet bodies are left out; each
/// component ascending, components ordered by their smallest body.
std::vector<Island> bfs_islands(const std::vector<AffineBody>& bodies, const Pairs& pairs) {
  const int n = static_cast<int>(bodies.size());
  std::vector<std::vector<int>> adjacent(n);
  for (const auto& [a, b] : pairs) {
    if (bodies[a].is_dirichlet() || bodies[b].is_dirichlet()) continue;
    adjacent[a].push_back(b);
    adjacent[b].push_back(a);
  }
  std::vector<char> seen(n, 0);
  std::vector<Island> islands;
  for (int start = 0; start < n; ++start) {
    if (seen[start] || bodies[start].is_dirichlet()) continue;
    Island island;
    std::queue<int> queue;
    queue.push(start);
    seen[start] = 1;
    while (!queue.empty()) {
      const int i = queue.front();
      queue.pop();
      island.push_back(i);
      for (int j : adjacent[i])
        if (!seen[j]) seen[j] = 1, queue.push(j);
    }
    std::sort(island.begin(), island.end());
    islands.push_back(island);
  }
  return islands;  // starts ascending: ordered by smallest body
}

TEST(Islands, MatchBreadthFirstSearchOnRandomGraphs) {
  for (unsigned seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    const int n = std::uniform_int_distribution<int>(1, 60)(rng);
    std::uniform_int_distribution<int> body(0, n - 1);
    std::bernoulli_distribution fixed(0.1), kinematic(0.1);
    std::vector<AffineBody> bodies(n);
    for (AffineBody& b : bodies) {
      b.fixed = fixed(rng);
      if (kinematic(rng)) b.kinematic = Kinematic{};
    }
    // Sparse to dense graphs; pairs in either orientation, duplicated, and self pairs.
    const int edges = std::uniform_int_distribution<int>(0, 2 * n)(rng);
    Pairs pairs;
    for (int e = 0; e < edges; ++e) pairs.push_back({body(rng), body(rng)});
    if (!pairs.empty()) pairs.push_back({pairs[0][1], pairs[0][0]});
    const std::vector<Island> islands = connected_islands(bodies, pairs);
    EXPECT_EQ(islands, bfs_islands(bodies, pairs)) << "seed " << seed << ", " << n << " bodies, " << edges
                                                   << " pairs";
  }
}

TEST(Islands, PrescribedBodiesJoinNoIslandAndLinkNothing) {
  // 0 – 1 – 2 – 3 with 2 fixed: {0, 1} and {3}; a kinematic 4 linked to 3 and 5 links neither.
  std::vector<AffineBody> bodies(6);
  bodies[2].fixed = true;
  bodies[4].kinematic = Kinematic{};
  const std::vector<Island> islands = connected_islands(bodies, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
  EXPECT_EQ(islands, (std::vector<Island>{{0, 1}, {3}, {5}}));
  EXPECT_TRUE(connected_islands(std::vector<AffineBody>(0), {}).empty());
}

TEST(Islands, FindRootFollowsParentsToTheRootAndHalvesThePath) {
  // A chain 15 → 14 → … → 0.
  std::vector<int> parent(16);
  std::iota(parent.begin(), parent.end(), -1);
  parent[0] = 0;
  EXPECT_EQ(find_root(parent, 15), 0);
  EXPECT_EQ(parent[15], 13) << "path halving points every other node of the path at its grandparent";
  for (int i = 0; i < 16; ++i) EXPECT_EQ(find_root(parent, i), 0) << i;
  std::vector<int> roots{0, 1, 1, 2};  // two trees: {0}, {1, 2, 3}
  EXPECT_EQ(find_root(roots, 0), 0);
  EXPECT_EQ(find_root(roots, 3), 1);
}

AffineBody box(double size) {
  AffineBody b;
  b.mesh = std::make_shared<const TriangleMesh>(make_box(Vec3::Constant(size)));
  return b;
}

TEST(SafeIslandMove, AnIslandStopsShortOfTheGroundTogetherAndAnotherMovesFreely) {
  // A: a 0.2 m cube whose bottom is d₀ = 0.05 above the ground, moved 0.1 m down. B: a cube resting
  // 3 mm above A (within d̂ = 0.01), moved with it: the pair links them into one island. C: far away,
  // moved sideways.
  const double dhat = 0.01, d0 = 0.05, size = 0.2;
  std::vector<AffineBody> bodies{box(size), box(size), box(size)};
  const Mat3 I = Mat3::Identity();
  VecX q(36), dq = VecX::Zero(36);
  q << affine_state(Vec3(0, 0, d0 + size / 2), I), affine_state(Vec3(0.02, 0, d0 + 1.5 * size + 0.003), I),
      affine_state(Vec3(5, 0, 1), I);
  dq[2] = dq[14] = -0.1;  // A and B straight down
  dq[24] = 0.3;           // C along x
  const JointModel no_joints;
  IncrementalPotential potential(bodies, Ground{}, dhat, no_joints);

  VecX moved = q;
  safe_island_move(potential, bodies, moved, dq);
  // The ground stops A where its bottom is s·d₀ above it: α = (d₀ − 0.1 d₀)/(d₀ − (d₀ − 0.1)).
  const double alpha = (d0 - 0.1 * d0) / 0.1;
  EXPECT_NEAR(alpha, 0.45, 1e-15);
  EXPECT_LT((moved.segment<12>(0) - (q.segment<12>(0) + alpha * dq.segment<12>(0))).norm(), 1e-12);
  EXPECT_LT((moved.segment<12>(12) - (q.segment<12>(12) + alpha * dq.segment<12>(12))).norm(), 1e-12)
      << "B is in A's island: it takes A's step";
  EXPECT_LT((moved.segment<12>(24) - (q.segment<12>(24) + dq.segment<12>(24))).norm(), 1e-12)
      << "C is an island of its own: its whole move";
  EXPECT_NEAR(state_translation(moved.segment<12>(0)).z() - size / 2, 0.1 * d0, 1e-12);

  // Without B's partner A, B alone would take its whole move (nothing in its way).
  VecX only_b = VecX::Zero(36);
  only_b.segment<12>(12) = dq.segment<12>(12);
  only_b[14] = 0.1;  // up, away from A
  moved = q;
  safe_island_move(potential, bodies, moved, only_b);
  EXPECT_LT((moved - (q + only_b)).norm(), 1e-12);
}

}  // namespace
}  // namespace affix
