// The rigid back-ends' contact detection (solvers/rigid/collision_detection.hpp) against closed-form
// overlaps: spheres and boxes on the ground and on each other, a capsule lying down, a torus touching
// as its tube segments and a compound as its parts (not their hull), a concave mesh named for its
// warning, the collision filters and the margin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "affix/solvers/rigid/collision_detection.hpp"
#include "affix/solvers/rigid/convex_pieces.hpp"
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

TEST(CollisionDetection, ATorusTouchesAsItsTubeSegmentsNotItsHull) {
  const double R = 1.0, r = 0.25;
  const int n = 24;
  BodyDef ring;
  ring.name = "ring";
  ring.shape = TorusShape{R, r, n};
  ring.position = {0, 0, 3};
  const double small = 0.5, large = 0.8;  // the hole's radius is R − r = 0.75
  const Model model =
      compile(test::scene_with({ring, sphere_body("s", small, {5, 0, 3}), sphere_body("l", large, {9, 0, 3})}, 0.01));
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  // A sphere in the middle of the hole, 0.25 m from the tube (its hull would hold it 0.5 m deep).
  detection.detect(at(model, {{0, 0, 3}, {0, 0, 3}, {9, 0, 3}}), contacts);
  EXPECT_TRUE(contacts.empty());
  // A larger one there meets each of the n segments at its inner face, the chord of the inner equator
  // at (R − r) cos(π/n) from the axis.
  detection.detect(at(model, {{0, 0, 3}, {5, 0, 3}, {0, 0, 3}}), contacts);
  ASSERT_EQ(contacts.size(), static_cast<std::size_t>(n));
  for (const RigidContact& c : contacts) {
    EXPECT_EQ(c.body1, 0);
    EXPECT_EQ(c.body2, 2);
    EXPECT_NEAR(c.depth, large - (R - r) * std::cos(std::numbers::pi / n), 1e-4);  // GJK/EPA's tolerance
    EXPECT_NEAR(c.normal.z(), 0.0, 1e-3);  // the ring pushed out radially (EPA: to ~10⁻³)
    EXPECT_GT(c.normal.dot(c.point - Vec3(0, 0, 3)), 0.0);
  }
  // A sphere touching the tube from outside: one segment (or two, at a segment boundary), by its depth.
  detection.detect(at(model, {{0, 0, 3}, {R + r + small - 0.01, 0, 3}, {9, 0, 3}}), contacts);
  ASSERT_FALSE(contacts.empty());
  // A ring vertex lies at R + r; libccd's EPA approximates the sphere's rounded Minkowski sum (~1%).
  for (const RigidContact& c : contacts) EXPECT_NEAR(c.depth, 0.01, 5e-4);
}

TEST(CollisionDetection, TheTorusSegmentsCoverItsMeshAndAVertexMeetsTheGroundOnce) {
  BodyDef ring;
  ring.name = "ring";
  ring.shape = TorusShape{1.0, 0.25, 16};
  ring.position = {0, 0, 3};
  const Model model = compile(test::scene_with({ring}, 0.01));
  const ConvexPieces pieces = convex_pieces(*model.bodies[0].mesh);
  ASSERT_EQ(pieces.pieces.size(), 16u);
  EXPECT_FALSE(pieces.hull_of_concave);
  std::size_t surface = 0;
  for (const ConvexPiece& piece : pieces.pieces) {
    EXPECT_EQ(piece.points.size(), 16u);  // two rings of the 8-sided tube
    surface += piece.surface.size();
  }
  EXPECT_EQ(surface, model.bodies[0].mesh->vertices.size());
  // Lying flat 0.01 m into the ground: the lowest ring of vertices (one per major angle) touches once each.
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  detection.detect(at(model, {{0, 0, 0.24}}), contacts);
  EXPECT_EQ(contacts.size(), 16u);
}

TEST(CollisionDetection, AnOddTorusAndATurnedScaledTorusPartAreFoundAsSegments) {
  // An odd resolution (a 3-sided tube: no vertex at the inner equator) and a compound's torus part turned
  // and scaled by 2, beside a sphere part: n segments each, and nothing taken as a concave hull.
  BodyDef odd;
  odd.name = "odd";
  odd.shape = TorusShape{0.3, 0.1, 7};
  odd.position = {0, 0, 3};
  CompoundShape parts;
  const Quat turned = Quat(0.9, 0.3, 0.1, 0.2).normalized();
  parts.parts.push_back({TorusShape{0.3, 0.1, 20}, Vec3(0.1, 0, 0), turned, Vec3::Constant(2.0)});
  parts.parts.push_back({SphereShape{0.2, 24}, Vec3(0, 0, 1), turned});
  BodyDef compound;
  compound.name = "compound";
  compound.shape = parts;
  compound.position = {5, 0, 5};
  const Model model = compile(test::scene_with({odd, compound}, 0.01));
  const ConvexPieces a = convex_pieces(*model.bodies[0].mesh), b = convex_pieces(*model.bodies[1].mesh);
  EXPECT_FALSE(a.hull_of_concave);
  EXPECT_EQ(a.pieces.size(), 7u);
  EXPECT_FALSE(b.hull_of_concave);
  ASSERT_EQ(b.pieces.size(), 21u);
  EXPECT_EQ(b.pieces[20].kind, ConvexPiece::Kind::sphere);
  EXPECT_NEAR(b.pieces[20].radius, 0.2, 1e-12);
  EXPECT_TRUE(b.pieces[20].center.isApprox(Vec3(0, 0, 1), 1e-12));
}

TEST(CollisionDetection, ACompoundTouchesAsItsPartsNotTheirHull) {
  // A dumbbell along x: two exact spheres (ρ = 0.1 at x = ±0.3) on a bar of radius 0.02.
  CompoundShape dumbbell;
  for (const double x : {-0.3, 0.3}) dumbbell.parts.push_back({SphereShape{0.1, 24}, Vec3(x, 0, 0)});
  dumbbell.parts.push_back({CylinderShape{0.02, 0.6, 24}, Vec3::Zero(),
                            Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()))});
  BodyDef body;
  body.name = "dumbbell";
  body.shape = dumbbell;
  body.position = {0, 0, 3};
  const Model model = compile(test::scene_with({body, sphere_body("s", 0.05, {5, 0, 3})}, 0.01));
  const ConvexPieces pieces = convex_pieces(*model.bodies[0].mesh);
  ASSERT_EQ(pieces.pieces.size(), 3u);
  EXPECT_EQ(pieces.pieces[0].kind, ConvexPiece::Kind::sphere);
  EXPECT_EQ(pieces.pieces[1].kind, ConvexPiece::Kind::sphere);
  EXPECT_EQ(pieces.pieces[2].kind, ConvexPiece::Kind::hull);
  CollisionDetection detection(model);
  std::vector<RigidContact> contacts;
  // 0.02 into the ground: each sphere at its lowest point, by its depth; the bar (0.06 up) not at all.
  detection.detect(at(model, {{0, 0, 0.08}, {5, 0, 3}}), contacts);
  ASSERT_EQ(contacts.size(), 2u);
  for (const RigidContact& c : contacts) {
    EXPECT_NEAR(c.depth, 0.02, 1e-12);
    EXPECT_NEAR(std::abs(c.point.x()), 0.3, 1e-12);
  }
  // A small sphere under the bar, between the spheres, inside their hull: untouched.
  detection.detect(at(model, {{0, 0, 3}, {0, 0, 3 - 0.02 - 0.06}}), contacts);
  EXPECT_TRUE(contacts.empty());
  // Raised into the bar by 0.01: touched, by that depth.
  detection.detect(at(model, {{0, 0, 3}, {0, 0, 3 - 0.02 - 0.04}}), contacts);
  ASSERT_FALSE(contacts.empty());
  for (const RigidContact& c : contacts) EXPECT_NEAR(c.depth, 0.01, 2e-3);  // the bar's 24-gon: ≤ 0.02(1 − cos 7.5°)
}

TEST(CollisionDetection, AConcaveMeshCollidesAsItsHullAndIsNamedForTheWarning) {
  // An octahedron with its top vertex pushed down to z = −0.2: a dent, not a convex solid.
  MeshShape dented;
  dented.vertices = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -0.2}, {0, 0, -1}};
  dented.triangles = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}, {1, 0, 5}, {2, 1, 5}, {3, 2, 5}, {0, 3, 5}};
  BodyDef body;
  body.name = "dented";
  body.shape = dented;
  body.position = {0, 0, 3};
  const ConvexPieces concave = convex_pieces(*compile(test::scene_with({body}, 0.01)).bodies[0].mesh);
  ASSERT_EQ(concave.pieces.size(), 1u);
  EXPECT_TRUE(concave.hull_of_concave);
  // The same with the vertex at z = +1 (a convex octahedron): no warning.
  std::get<MeshShape>(body.shape).vertices[4] = {0, 0, 1};
  EXPECT_FALSE(convex_pieces(*compile(test::scene_with({body}, 0.01)).bodies[0].mesh).hull_of_concave);
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
