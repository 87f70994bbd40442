// Every primitive is a valid solid (closed, manifold, outward) of the right topology and size, at
// several resolutions, and bad parameters are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "affix/geometry/aabb.hpp"
#include "affix/geometry/mesh_validation.hpp"
#include "affix/geometry/primitives.hpp"

namespace affix {
namespace {

int euler_characteristic(const TriangleMesh& mesh) {
  return static_cast<int>(mesh.vertices.size()) - static_cast<int>(mesh_edges(mesh).size()) +
         static_cast<int>(mesh.faces.size());
}

struct PrimitiveCase {
  std::string name;
  std::function<TriangleMesh(int)> make;  ///< mesh at a resolution
  int euler;                              ///< 2 for a sphere-like surface, 0 for a torus
  Vec3 half_extent;                       ///< of the smooth shape's bounding box
  int min_resolution;
};

const std::vector<PrimitiveCase>& cases() {
  static const std::vector<PrimitiveCase> all = {
      {"box", [](int n) { return make_box({1.0, 2.0, 3.0}, n); }, 2, {0.5, 1.0, 1.5}, 1},
      {"sphere", [](int n) { return make_sphere(0.5, n); }, 2, {0.5, 0.5, 0.5}, 3},
      {"capsule", [](int n) { return make_capsule(0.5, 2.0, n); }, 2, {0.5, 0.5, 1.5}, 3},
      {"capsule_without_cylinder", [](int n) { return make_capsule(0.5, 0.0, n); }, 2, {0.5, 0.5, 0.5}, 3},
      {"cylinder", [](int n) { return make_cylinder(0.5, 2.0, n); }, 2, {0.5, 0.5, 1.0}, 3},
      {"torus", [](int n) { return make_torus(1.0, 0.25, n); }, 0, {1.25, 1.25, 0.25}, 3},
  };
  return all;
}

TEST(Primitives, AreValidSolidsWithTheRightEulerCharacteristic) {
  for (const PrimitiveCase& c : cases()) {
    for (int n : {c.min_resolution, 4, 5, 7, 16, 33, 64}) {
      SCOPED_TRACE(c.name + " at resolution " + std::to_string(n));
      const TriangleMesh mesh = c.make(n);
      EXPECT_EQ(find_mesh_defect(mesh), std::nullopt);
      EXPECT_EQ(euler_characteristic(mesh), c.euler);
    }
  }
}

TEST(Primitives, AreInscribedInTheirSmoothShapeAndCentredOnTheOrigin) {
  for (const PrimitiveCase& c : cases()) {
    SCOPED_TRACE(c.name);
    const Aabb box = aabb_of(c.make(64).vertices);
    // Inscribed: no vertex outside the smooth shape's box; the poles and box corners touch it along z.
    EXPECT_TRUE((box.max.array() <= c.half_extent.array() + 1e-12).all()) << box.max.transpose();
    EXPECT_TRUE((box.min.array() >= -c.half_extent.array() - 1e-12).all()) << box.min.transpose();
    EXPECT_NEAR(box.max.z(), c.half_extent.z(), 1e-12);
    EXPECT_NEAR(box.min.z(), -c.half_extent.z(), 1e-12);
    // 64 segments around: the polygon's extent reaches cos(π/64) of the radius or better.
    EXPECT_GT(box.max.x(), 0.998 * c.half_extent.x());
  }
}

TEST(Primitives, BoxSharesGridVerticesBetweenFaces) {
  for (int n : {1, 2, 5}) {
    const TriangleMesh box = make_box({1.0, 1.0, 1.0}, n);
    // Surface points of the (n+1)³ lattice, and two triangles per grid square on six faces.
    EXPECT_EQ(box.vertices.size(), static_cast<std::size_t>(6 * n * n + 2));
    EXPECT_EQ(box.faces.size(), static_cast<std::size_t>(12 * n * n));
  }
}

TEST(Primitives, SphereHasSinglePolesAndHalfAsManyBandsAsSegments) {
  const TriangleMesh sphere = make_sphere(1.0, 12);
  // 12 meridians, 6 bands: 5 rings of 12 vertices plus the 2 poles.
  EXPECT_EQ(sphere.vertices.size(), 5u * 12u + 2u);
  EXPECT_EQ(sphere.faces.size(), 2u * 12u * 5u);
}

TEST(Primitives, TorusUsesHalfAsManySegmentsAroundTheTube) {
  EXPECT_EQ(make_torus(1.0, 0.2, 24).vertices.size(), 24u * 12u);
  EXPECT_EQ(make_torus(1.0, 0.2, 4).vertices.size(), 4u * 3u);  // at least 3 around the tube
}

TEST(Primitives, RefuseBadParameters) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(make_box({1.0, 0.0, 1.0}, 1), std::invalid_argument);
  EXPECT_THROW(make_box({1.0, -1.0, 1.0}, 1), std::invalid_argument);
  EXPECT_THROW(make_box({1.0, nan, 1.0}, 1), std::invalid_argument);
  EXPECT_THROW(make_box({1.0, 1.0, 1.0}, 0), std::invalid_argument);
  EXPECT_THROW(make_sphere(0.0, 16), std::invalid_argument);
  EXPECT_THROW(make_sphere(inf, 16), std::invalid_argument);
  EXPECT_THROW(make_sphere(1.0, 2), std::invalid_argument);
  EXPECT_THROW(make_capsule(1.0, -0.1, 16), std::invalid_argument);
  EXPECT_THROW(make_capsule(-1.0, 1.0, 16), std::invalid_argument);
  EXPECT_THROW(make_capsule(1.0, 1.0, 2), std::invalid_argument);
  EXPECT_THROW(make_cylinder(1.0, 0.0, 16), std::invalid_argument);
  EXPECT_THROW(make_cylinder(0.0, 1.0, 16), std::invalid_argument);
  EXPECT_THROW(make_cylinder(1.0, 1.0, 2), std::invalid_argument);
  EXPECT_THROW(make_torus(1.0, 1.0, 16), std::invalid_argument);  // the tube would reach the axis
  EXPECT_THROW(make_torus(1.0, 0.0, 16), std::invalid_argument);
  EXPECT_THROW(make_torus(1.0, 0.2, 2), std::invalid_argument);
}


TEST(Primitives, TriangleCountsFromTheFormulaMatchTheMeshes) {
  // The formulas let a scene refuse a resolution before anything is allocated, so they must be exact.
  for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 33, 64}) {
    SCOPED_TRACE(n);
    EXPECT_EQ(box_triangle_count(n), static_cast<std::int64_t>(make_box({1.0, 2.0, 3.0}, n).faces.size()));
    if (n < 3) continue;
    EXPECT_EQ(sphere_triangle_count(n), static_cast<std::int64_t>(make_sphere(0.5, n).faces.size()));
    EXPECT_EQ(capsule_triangle_count(2.0, n),
              static_cast<std::int64_t>(make_capsule(0.5, 2.0, n).faces.size()));
    EXPECT_EQ(capsule_triangle_count(0.0, n),
              static_cast<std::int64_t>(make_capsule(0.5, 0.0, n).faces.size()));
    EXPECT_EQ(cylinder_triangle_count(n), static_cast<std::int64_t>(make_cylinder(0.5, 2.0, n).faces.size()));
    EXPECT_EQ(torus_triangle_count(n), static_cast<std::int64_t>(make_torus(1.0, 0.25, n).faces.size()));
  }
  // Without overflow far beyond any resolution a scene allows.
  EXPECT_EQ(box_triangle_count(100'000'000), 12LL * 100'000'000 * 100'000'000);
  EXPECT_EQ(sphere_triangle_count(2'000'000'000), 2LL * 2'000'000'000 * (1'000'000'000 - 1));
}

TEST(Primitives, FineBoxNeedsMemoryForItsSurfaceOnly) {
  // Indexing the whole (n+1)³ lattice took 4 GB at n = 1000; the surface needs O(n²).
  const TriangleMesh box = make_box({1.0, 1.0, 1.0}, 300);
  EXPECT_EQ(box.faces.size(), 12u * 300 * 300);
  EXPECT_EQ(box.vertices.size(), 6u * 300 * 300 + 2);  // V = E − F + 2 with E = 3F/2
  EXPECT_EQ(find_mesh_defect(box), std::nullopt);
}

}  // namespace
}  // namespace affix
