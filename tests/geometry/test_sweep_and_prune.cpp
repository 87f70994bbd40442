// Sort-and-sweep reports exactly the intersecting pairs, each once with i < j, along any axis, and
// stops when asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "affix/geometry/sweep_and_prune.hpp"

namespace affix {
namespace {

TEST(SweepAndPrune, MatchesBruteForceOnEveryAxis) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> at(-1.0, 1.0), size(0.0, 0.3);
  std::vector<Aabb> boxes;
  for (int k = 0; k < 300; ++k) {
    const Vec3 min(at(rng), at(rng), at(rng));
    boxes.push_back(Aabb{min, min + Vec3(size(rng), size(rng), size(rng))});
  }
  boxes.push_back(Aabb{});                                           // empty: in no pair
  boxes.push_back(Aabb{boxes[0].max, boxes[0].max + Vec3::Ones()});  // touches box 0 at a corner
  std::vector<std::pair<int, int>> expected;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      if (boxes[i].intersects(boxes[j])) {
        expected.emplace_back(i, j);
      }
    }
  }
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<std::pair<int, int>> found;
    EXPECT_FALSE(for_each_overlapping_pair(std::span<const Aabb>(boxes), axis, [&](int i, int j) {
      found.emplace_back(i, j);
      return false;
    }));
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, expected) << "axis " << axis;
  }
  int visits = 0;
  EXPECT_TRUE(for_each_overlapping_pair(std::span<const Aabb>(boxes), 0, [&](int, int) { return ++visits == 3; }));
  EXPECT_EQ(visits, 3);
}

}  // namespace
}  // namespace affix
