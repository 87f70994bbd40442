// Each kind of defect is found and named; valid solids pass.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "affix/geometry/mesh_validation.hpp"
#include "affix/geometry/primitives.hpp"

namespace affix {
namespace {

/// The defect message, which must exist and contain `key`.
::testing::AssertionResult defect_mentions(const TriangleMesh& mesh, const std::string& key) {
  const auto defect = find_mesh_defect(mesh);
  if (!defect) return ::testing::AssertionFailure() << "no defect found, expected \"" << key << "\"";
  if (defect->find(key) == std::string::npos) {
    return ::testing::AssertionFailure() << "\"" << *defect << "\" does not mention \"" << key << "\"";
  }
  return ::testing::AssertionSuccess() << *defect;
}

TriangleMesh unit_box() { return make_box({1.0, 1.0, 1.0}, 1); }

TEST(MeshValidation, AcceptsValidSolids) {
  EXPECT_EQ(find_mesh_defect(unit_box()), std::nullopt);
  EXPECT_EQ(find_mesh_defect(make_box({1.0, 2.0, 3.0}, 4)), std::nullopt);
  // Two separate closed parts are still a valid solid.
  TriangleMesh two = unit_box();
  const TriangleMesh other = make_sphere(0.3, 8);
  const int offset = static_cast<int>(two.vertices.size());
  for (const Vec3& v : other.vertices) two.vertices.push_back(v + Vec3(3.0, 0.0, 0.0));
  for (const auto& f : other.faces) two.faces.push_back({f[0] + offset, f[1] + offset, f[2] + offset});
  EXPECT_EQ(find_mesh_defect(two), std::nullopt);
}

TEST(MeshValidation, EmptyMesh) {
  EXPECT_TRUE(defect_mentions(TriangleMesh{}, "no triangles"));
}

TEST(MeshValidation, OutOfRangeIndex) {
  TriangleMesh box = unit_box();
  box.faces[3][1] = 8;
  EXPECT_TRUE(defect_mentions(box, "refers to vertex 8"));
  box.faces[3][1] = -1;
  EXPECT_TRUE(defect_mentions(box, "refers to vertex -1"));
}

TEST(MeshValidation, NonFiniteCoordinate) {
  TriangleMesh box = unit_box();
  box.vertices[5].y() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(defect_mentions(box, "non-finite"));
  box.vertices[5].y() = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(defect_mentions(box, "vertex 5 has a non-finite"));
}

TEST(MeshValidation, DegenerateTriangles) {
  TriangleMesh repeated = unit_box();
  repeated.faces[0][2] = repeated.faces[0][1];
  EXPECT_TRUE(defect_mentions(repeated, "degenerate"));

  // A vertex moved onto the midpoint of the opposite edge of one of its triangles: zero area.
  TriangleMesh collinear = unit_box();
  const auto [a, b, c] = collinear.faces[0];
  collinear.vertices[a] = 0.5 * (collinear.vertices[b] + collinear.vertices[c]);
  EXPECT_TRUE(defect_mentions(collinear, "degenerate"));
}

TEST(MeshValidation, MissingFaceIsNotClosed) {
  TriangleMesh box = unit_box();
  box.faces.pop_back();
  EXPECT_TRUE(defect_mentions(box, "not closed: it has 3 boundary edges"));
  box.faces.pop_back();  // the whole square side gone: its 4 outer edges remain open
  EXPECT_TRUE(defect_mentions(box, "not closed: it has 4 boundary edges"));
}

TEST(MeshValidation, OneFlippedFaceIsInconsistentlyOriented) {
  TriangleMesh box = unit_box();
  std::swap(box.faces[4][1], box.faces[4][2]);
  EXPECT_TRUE(defect_mentions(box, "inconsistently oriented"));
}

TEST(MeshValidation, AllFacesFlippedIsInwardFacing) {
  TriangleMesh sphere = make_sphere(1.0, 12);
  for (auto& f : sphere.faces) std::swap(f[1], f[2]);
  EXPECT_TRUE(defect_mentions(sphere, "inward-facing"));
}

TEST(MeshValidation, ExtraFaceOnAnEdgeIsNotManifold) {
  TriangleMesh box = unit_box();
  // A fin: a new vertex outside, joined to an existing edge.
  const auto [a, b, c] = box.faces[0];
  box.vertices.push_back(Vec3(3.0, 3.0, 3.0));
  box.faces.push_back({a, b, static_cast<int>(box.vertices.size()) - 1});
  EXPECT_TRUE(defect_mentions(box, "not manifold"));
  EXPECT_TRUE(defect_mentions(box, "shared by 3 triangles"));
}

TEST(MeshValidation, DuplicatedFaceIsCaught) {
  TriangleMesh same = unit_box();
  same.faces.push_back(same.faces[0]);
  EXPECT_TRUE(defect_mentions(same, "not manifold"));
}

TEST(MeshValidation, TwoSolidsTouchingAtAVertexAreNotManifoldThere) {
  // Two tetrahedra sharing only vertex 0: every edge is fine, the vertex is not.
  TriangleMesh bowtie;
  bowtie.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
  bowtie.faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3},
                  {0, 4, 5}, {0, 6, 4}, {0, 5, 6}, {4, 6, 5}};  // the mirror image of the first
  EXPECT_TRUE(defect_mentions(bowtie, "not manifold at vertex 0"));
}

TEST(MeshValidation, FlatClosedSurfaceEnclosesNoVolume) {
  // Two triangles back to back: closed and consistently oriented, but flat.
  TriangleMesh pillow;
  pillow.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  pillow.faces = {{0, 1, 2}, {0, 2, 1}};
  EXPECT_TRUE(defect_mentions(pillow, "no volume"));
}

}  // namespace
}  // namespace affix
