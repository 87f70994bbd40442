// The uniform grid reports exactly the stored boxes that intersect a query, each once, against brute
// force: random boxes of mixed sizes, queries partly outside the region, and a flat region.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "affix/geometry/uniform_grid.hpp"

namespace affix {
namespace {

Aabb random_box(std::mt19937& rng, double spread, double max_size) {
  std::uniform_real_distribution<double> at(-spread, spread), size(0.0, max_size);
  const Vec3 min(at(rng), at(rng), at(rng));
  return Aabb{min, min + Vec3(size(rng), size(rng), size(rng))};
}

void expect_matches_brute_force(const std::vector<Aabb>& boxes, const Aabb& region, const std::vector<Aabb>& queries) {
  const UniformGrid grid(boxes, region);
  for (const Aabb& query : queries) {
    std::vector<int> found, expected;
    grid.for_each_intersecting(query, [&](int k) {
      found.push_back(k);
      return false;
    });
    for (int k = 0; k < static_cast<int>(boxes.size()); ++k) {
      if (boxes[k].intersects(region) && boxes[k].intersects(query)) {
        expected.push_back(k);
      }
    }
    std::sort(found.begin(), found.end());  // duplicates would survive the sort and fail the comparison
    EXPECT_EQ(found, expected);
  }
}

TEST(UniformGrid, ReportsEachIntersectingBoxOnce) {
  std::mt19937 rng(7);
  std::vector<Aabb> boxes, queries;
  for (int k = 0; k < 400; ++k) {
    boxes.push_back(random_box(rng, 1.0, k % 10 == 0 ? 1.5 : 0.1));  // a few large boxes span many cells
  }
  for (int k = 0; k < 200; ++k) {
    queries.push_back(random_box(rng, 1.5, 0.3));  // some reach outside the region
  }
  queries.push_back(Aabb{});  // empty: meets nothing
  const Aabb region{Vec3(-0.8, -0.8, -0.8), Vec3(0.8, 0.8, 0.8)};
  expect_matches_brute_force(boxes, region, queries);
  const UniformGrid grid(boxes, region);
  const auto dims = grid.dimensions();
  EXPECT_GT(dims[0] * dims[1] * dims[2], 1);
  EXPECT_LE(dims[0] * dims[1] * dims[2], UniformGrid::kMaxCellsPerBox * static_cast<int>(boxes.size()));
}

TEST(UniformGrid, FlatRegionAndDegenerateBoxes) {
  std::mt19937 rng(11);
  std::vector<Aabb> boxes, queries;
  for (int k = 0; k < 100; ++k) {
    Aabb box = random_box(rng, 1.0, 0.2);
    box.min.z() = box.max.z() = 0.0;  // flat boxes in the plane z = 0
    boxes.push_back(box);
    queries.push_back(random_box(rng, 1.0, 0.2));
  }
  expect_matches_brute_force(boxes, Aabb{Vec3(-1, -1, 0), Vec3(1, 1, 0)}, queries);
}

TEST(UniformGrid, StopsWhenTheVisitorSaysSo) {
  const std::vector<Aabb> boxes(5, Aabb{Vec3::Zero(), Vec3::Ones()});
  const UniformGrid grid(boxes, boxes.front());
  int visits = 0;
  EXPECT_TRUE(grid.for_each_intersecting(boxes.front(), [&](int) { return ++visits == 2; }));
  EXPECT_EQ(visits, 2);
}

}  // namespace
}  // namespace affix
