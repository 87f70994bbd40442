// Axis-aligned boxes: growth, margins, overlap (touching counts), and the empty box.
#include <gtest/gtest.h>

#include <vector>

#include "affix/geometry/aabb.hpp"

namespace affix {
namespace {

TEST(Aabb, OfPointsIsTheirComponentwiseRange) {
  const std::vector<Vec3> points = {{1, -2, 3}, {-1, 4, 0}, {0.5, 0, 7}};
  const Aabb box = aabb_of(points);
  EXPECT_EQ(box.min, Vec3(-1, -2, 0));
  EXPECT_EQ(box.max, Vec3(1, 4, 7));
  EXPECT_EQ(box.diagonal(), Vec3(2, 6, 7));
  EXPECT_EQ(box.center(), Vec3(0, 1, 3.5));
}

TEST(Aabb, EmptyBoxIsNeutralForExtendAndIntersectsNothing) {
  const Aabb empty;
  EXPECT_TRUE(empty.is_empty());
  EXPECT_TRUE(aabb_of({}).is_empty());
  EXPECT_EQ(empty.diagonal(), Vec3::Zero());
  Aabb unit = aabb_of(std::vector<Vec3>{Vec3::Zero(), Vec3::Ones()});
  EXPECT_FALSE(empty.intersects(unit));
  EXPECT_FALSE(unit.intersects(empty));
  EXPECT_FALSE(empty.intersects(empty));
  unit.extend(empty);
  EXPECT_EQ(unit.min, Vec3::Zero());
  EXPECT_EQ(unit.max, Vec3::Ones());

  Aabb grown;
  grown.extend(Vec3(1, 2, 3));
  EXPECT_FALSE(grown.is_empty());  // a single point is a (degenerate) box
  EXPECT_EQ(grown.min, grown.max);
}

TEST(Aabb, IntersectsWhenOverlappingOrTouchingOnEveryAxis) {
  const Aabb a{Vec3(0, 0, 0), Vec3(1, 1, 1)};
  EXPECT_TRUE(a.intersects(Aabb{Vec3(0.5, 0.5, 0.5), Vec3(2, 2, 2)}));
  EXPECT_TRUE(a.intersects(Aabb{Vec3(1, 0, 0), Vec3(2, 1, 1)}));        // shared face
  EXPECT_TRUE(a.intersects(Aabb{Vec3(0.2, 0.2, 0.2), Vec3(0.3, 0.3, 0.3)}));  // contained
  EXPECT_FALSE(a.intersects(Aabb{Vec3(1.01, 0, 0), Vec3(2, 1, 1)}));    // gap along x
  EXPECT_FALSE(a.intersects(Aabb{Vec3(0, 0, -2), Vec3(1, 1, -0.5)}));   // gap along z only
}

TEST(Aabb, InflateAddsAMarginOnEverySide) {
  Aabb a{Vec3(0, 0, 0), Vec3(1, 1, 1)};
  const Aabb b{Vec3(1.05, 0, 0), Vec3(2, 1, 1)};
  EXPECT_FALSE(a.intersects(b));
  a.inflate(0.1);
  EXPECT_EQ(a.min, Vec3::Constant(-0.1));
  EXPECT_EQ(a.max, Vec3::Constant(1.1));
  EXPECT_TRUE(a.intersects(b));
  a.inflate(-1.0);  // shrinking past zero size empties the box
  EXPECT_TRUE(a.is_empty());
}

}  // namespace
}  // namespace affix
