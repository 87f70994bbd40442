// The rigid back-ends' contact detection (solvers/rigid/collision_detection.hpp) against closed-form
// overlaps: spheres and boxes on the ground and on each other, a capsule lying down, a torus touching
// as its convex hull, the collision filters and the margin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "affix/solvers/rigid/collision_detection.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

using test::sphere_body;

/// Poses with each body's origin at `origins` and rotation R (centre of mass = origin for these
/// centred shapes).
std::vector<RigidPose> at(const Model& model, const std::vector<Vec3>& origins, const Mat3& R = Mat3::Identity()) {
  std::vector<RigidPose> poses;
  for (std::size_t i = 0; i < origins.size(); ++i) poses.push_back({origins[i] + R * model.bodies[i].center_of_mass, R});
  return poses;
}

TEST(CollisionDetection, SphereOnTheGroundTouchesAtItsLowestPointByItsDepth) {
  const Model model = compile(test::scene_with({sphere_body("s", 0.5, {0, 0, 1})}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  detection.detect(at(model, {{0.3, -0.2, 0.4}}), contacts);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].body1, 0);
  EXPECT_EQ(contacts[0].body2, -1);
  EXPECT_NEAR(contacts[0].depth, 0.1, 1e-12);
  EXPECT_TRUE(contacts[0].normal.isApprox(Vec3::UnitZ()));
  EXPECT_TRUE(contacts[0].point.isApprox(Vec3(0.3, -0.2, -0.05), 1e-12));
  detection.detect(at(model, {{0, 0, 0.6}}), contacts);
  EXPECT_TRUE(contacts.empty());
  detection.detect(at(model, {{0, 0, 0.6}}), contacts, 0.2);  // within the margin: depth −0.1
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_NEAR(contacts[0].depth, -0.1, 1e-12);
}

TEST(CollisionDetection, TiltedBoxTouchesTheGroundAtEachCornerBelowIt) {
  const Model model = compile(test::scene_with({test::box_body("b", {1, 1, 1}, {0, 0, 2})}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  detection.detect(at(model, {{0, 0, 0.45}}), contacts);  // flat: the four bottom corners, 0.05 deep
  ASSERT_EQ(contacts.size(), 4u);
  for (const RigidContact& c : contacts) {
    EXPECT_NEAR(c.depth, 0.05, 1e-12);
    EXPECT_NEAR(std::abs(c.point.x()), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(c.point.y()), 0.5, 1e-12);
  }
  // Turned 45° about y: one edge (two corners) lowest, at z = 0.6 − √2/2.
  const Mat3 R = Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitY()).toRotationMatrix();
  detection.detect(at(model, {{0, 0, 0.6}}, R), contacts);
  ASSERT_EQ(contacts.size(), 2u);
  for (const RigidContact& c : contacts) EXPECT_NEAR(c.depth, std::sqrt(0.5) - 0.6, 1e-12);
}

TEST(CollisionDetection, CapsuleLyingDownTouchesAtItsTessellationsLowestVertices) {
  BodyDef capsule;
  capsule.name = "c";
  capsule.shape = CapsuleShape{0.1, 1.0, 24};
  capsule.position = {0, 0, 1};
  const Model model = compile(test::scene_with({capsule}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  const Mat3 lying = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()).toRotationMatrix();  // z → −y
  detection.detect(at(model, {{0, 0, 0.08}}, lying), contacts);
  // Its lowest mesh vertices lie on the capsule (radius 0.1): 0.02 deep, along the whole length.
  ASSERT_GE(contacts.size(), 2u);
  double deepest = 0.0, y_lo = 1.0, y_hi = -1.0;
  for (const RigidContact& c : contacts) {
    deepest = std::max(deepest, c.depth);
    y_lo = std::min(y_lo, c.point.y());
    y_hi = std::max(y_hi, c.point.y());
  }
  EXPECT_NEAR(deepest, 0.02, 1e-9);
  // Along the whole cylinder and into the caps (their vertices in the lowest 0.02 m), within the tips.
  EXPECT_GE(y_hi - y_lo, 1.0 - 1e-9);
  EXPECT_LE(y_hi - y_lo, 1.2);
}

TEST(CollisionDetection, OverlappingSpheresGiveTheirOverlapAlongTheLineOfCentres) {
  const Model model = compile(test::scene_with({sphere_body("a", 0.5, {0, 0, 3}), sphere_body("b", 0.3, {2, 0, 3})}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  const Vec3 a(0, 0, 3), b = a + 0.7 * Vec3(0.6, 0.0, 0.8);  // 0.1 overlap
  detection.detect(at(model, {a, b}), contacts);
  ASSERT_EQ(contacts.size(), 1u);
  const RigidContact& c = contacts[0];
  EXPECT_EQ(c.body1, 0);
  EXPECT_EQ(c.body2, 1);
  EXPECT_NEAR(c.depth, 0.1, 1e-6);
  EXPECT_TRUE(c.normal.isApprox(-Vec3(0.6, 0.0, 0.8), 1e-6)) << c.normal.transpose();  // pushes a away from b
  // The point lies in the lens of the overlap: on the line of centres, between the two surfaces.
  const double along = (c.point - a).dot(Vec3(0.6, 0.0, 0.8));
  EXPECT_GE(along, 0.4 - 1e-6);
  EXPECT_LE(along, 0.5 + 1e-6);
  EXPECT_LT(((c.point - a) - along * Vec3(0.6, 0.0, 0.8)).norm(), 1e-6);
}

TEST(CollisionDetection, StackedBoxesOverlapByTheirInterpenetrationWithANormalAlongTheStack) {
  const Model model = compile(
      test::scene_with({test::box_body("low", {1, 1, 1}, {0, 0, 2}), test::box_body("high", {1, 1, 1}, {0, 0, 4})}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  detection.detect(at(model, {{0, 0, 2}, {0.1, 0.2, 2.95}}), contacts);
  ASSERT_GE(contacts.size(), 1u);
  for (const RigidContact& c : contacts) {
    EXPECT_EQ(c.body1, 0);
    EXPECT_NEAR(c.depth, 0.05, 1e-6);
    EXPECT_TRUE(c.normal.isApprox(-Vec3::UnitZ(), 1e-6)) << c.normal.transpose();  // the lower box pushed down
    EXPECT_GT(c.point.z(), 2.45 - 1e-6);
    EXPECT_LT(c.point.z(), 2.5 + 1e-6);
  }
}

TEST(CollisionDetection, ATorusTouchesAsItsConvexHull) {
  BodyDef ring;
  ring.name = "ring";
  ring.shape = TorusShape{1.0, 0.25, 24};
  ring.position = {0, 0, 3};
  const Model model = compile(test::scene_with({ring, sphere_body("s", 0.2, {5, 0, 3})}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  // A small sphere in the middle of the hole is 0.8 m from the tube, but inside the hull.
  detection.detect(at(model, {{0, 0, 3}, {0, 0, 3}}), contacts);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_GT(contacts[0].depth, 0.2);
}

TEST(CollisionDetection, FilteredPairsAndPairsApartGiveNoContact) {
  BodyDef a = sphere_body("a", 0.5, {0, 0, 3}), b = sphere_body("b", 0.5, {2, 0, 3});
  a.collision = {1, 1};
  b.collision = {2, 2};  // neither's group is in the other's mask
  const Model filtered = compile(test::scene_with({a, b}, 0.01));
  CollisionDetection detection(filtered);
  std::vector<RigidContact> contacts;
  detection.detect(at(filtered, {{0, 0, 3}, {0.9, 0, 3}}), contacts);
  EXPECT_TRUE(contacts.empty());
  const Model open = compile(test::scene_with({sphere_body("a", 0.5, {0, 0, 3}), sphere_body("b", 0.5, {2, 0, 3})}, 0.01));
  CollisionDetection apart(open);
  apart.detect(at(open, {{0, 0, 3}, {1.01, 0, 3}}), contacts);
  EXPECT_TRUE(contacts.empty());
  apart.detect(at(open, {{0, 0, 3}, {0.99, 0, 3}}), contacts);
  EXPECT_EQ(contacts.size(), 1u);
}

}  // namespace
}  // namespace affix
