// The run loop's divergence check on contacts (io/contact_depth.hpp): each shape's smallest half-extent,
// the limit of a pair (the smaller one's), the ground's (the body's alone), a step without a reported
// overlap, and the message naming both bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "affix/io/contact_depth.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

Scene shapes() {
  Scene s;
  s.bodies = {test::box_body("plate", Vec3(2.0, 1.0, 0.1), Vec3::Zero()), test::sphere_body("ball", 0.3, Vec3::Zero())};
  BodyDef capsule, cylinder, torus, mesh, file, compound;
  capsule.shape = CapsuleShape{0.2, 3.0, 8};
  cylinder.shape = CylinderShape{0.5, 0.4, 8};
  torus.shape = TorusShape{1.0, 0.1, 8};
  MeshShape m;
  m.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0.6, 0), Vec3(0, 0, 0.8)};
  m.scale = Vec3(1.0, 1.0, 0.5);  // z extent 0.4: the smallest, 0.2 half
  mesh.shape = m;
  MeshShape f;
  f.file = "part.obj";
  file.shape = f;
  CompoundShape c;
  c.parts = {ShapePart{SphereShape{0.5, 8}, Vec3::Zero(), Quat::Identity(), Vec3::Constant(2.0)},
             ShapePart{BoxShape{Vec3(1.0, 1.0, 1.0), 1}, Vec3(1, 0, 0), Quat::Identity(), Vec3(1.0, 0.3, 1.0)}};
  compound.shape = c;
  for (BodyDef* b : {&capsule, &cylinder, &torus, &mesh, &file, &compound}) s.bodies.push_back(*b);
  return s;
}

TEST(ContactDepth, EachShapeCountsByHalfItsSmallestHalfExtent) {
  const ContactDepth depth(shapes());
  const double none = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(depth.limit(0, -1), 0.05) << "a plate on the ground: its half-thickness";
  EXPECT_DOUBLE_EQ(depth.limit(1, -1), 0.3) << "a sphere: its radius";
  EXPECT_DOUBLE_EQ(depth.limit(2, -1), 0.2) << "a capsule: its radius";
  EXPECT_DOUBLE_EQ(depth.limit(3, -1), 0.2) << "a cylinder: min(radius, half its length)";
  EXPECT_DOUBLE_EQ(depth.limit(4, -1), 0.1) << "a torus: its minor radius";
  EXPECT_DOUBLE_EQ(depth.limit(5, -1), 0.2) << "an inline mesh: its box in its own axes, scaled";
  EXPECT_EQ(depth.limit(6, -1), none) << "a mesh file: no extent, not checked";
  EXPECT_DOUBLE_EQ(depth.limit(7, -1), 0.15) << "a compound: its smallest part, by the part's smallest scale";
  EXPECT_DOUBLE_EQ(depth.limit(1, 0), 0.05) << "a pair: the smaller body's";
  EXPECT_DOUBLE_EQ(depth.limit(6, 1), 0.3) << "a pair with an unchecked body: the other's";
}

TEST(ContactDepth, OnlyAnOverlapPastItsPairsLimitIsReportedWithBothBodies) {
  const Scene scene = shapes();
  const ContactDepth depth(scene);
  StepStats stats;
  stats.max_penetration = stats.overlap_depth = 1.0;
  EXPECT_FALSE(depth.find(stats)) << "no pair reported (ipc, or no contact)";
  stats.overlap_body1 = 1, stats.overlap_body2 = -1, stats.overlap_depth = 0.299;
  EXPECT_FALSE(depth.find(stats));
  stats.overlap_depth = 0.301;
  const auto sunk = depth.find(stats);
  ASSERT_TRUE(sunk);
  EXPECT_EQ(sunk->body1, 1);
  EXPECT_EQ(sunk->body2, -1);
  EXPECT_DOUBLE_EQ(sunk->limit, 0.3);
  const std::vector<std::string> names{"plate", "ball"};
  EXPECT_EQ(depth.message(names, *sunk).rfind("body 'ball' sank 0.301 m into the ground, past the limit of 0.3 m", 0), 0u)
      << depth.message(names, *sunk);
  stats.overlap_body2 = 0, stats.overlap_depth = 0.06;  // the ball into the plate: the plate's limit
  ASSERT_TRUE(depth.find(stats));
  EXPECT_NE(depth.message(names, *depth.find(stats)).find("into body 'plate'"), std::string::npos);
  stats.overlap_depth = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(depth.find(stats)) << "an overlap that is not a number";
}

}  // namespace
}  // namespace affix
