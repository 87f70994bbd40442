// Solid angles and winding numbers against closed forms: an octant's solid angle, 1 inside a solid,
// 0 outside and in a torus's hole, −1 inside a mirrored solid.
#include <gtest/gtest.h>

#include <numbers>

#include "affix/geometry/primitives.hpp"
#include "affix/geometry/winding_number.hpp"

namespace affix {
namespace {

TEST(WindingNumber, SolidAngleOfAnOctantIsAnEighthOfTheSphere) {
  const Vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  // Seen from the origin (x, y, z) is clockwise: the origin is behind this outward face.
  EXPECT_NEAR(triangle_solid_angle(x, y, z, Vec3::Zero()), std::numbers::pi / 2, 1e-14);
  EXPECT_NEAR(triangle_solid_angle(x, z, y, Vec3::Zero()), -std::numbers::pi / 2, 1e-14);
  // Any point of the plane x + y + z = 1 off the triangle sees it edge-on.
  EXPECT_NEAR(triangle_solid_angle(x, y, z, Vec3(2, -1, 0)), 0.0, 1e-14);
}

TEST(WindingNumber, IsOneInsideAndZeroOutsideASolid) {
  for (const TriangleMesh& mesh : {make_sphere(1.0, 12), make_box({2, 1, 0.5}, 2), make_capsule(0.3, 1.0, 9)}) {
    EXPECT_NEAR(winding_number(mesh.vertices, mesh.faces, Vec3(0.01, 0.02, 0.03)), 1.0, 1e-12);
    EXPECT_NEAR(winding_number(mesh.vertices, mesh.faces, Vec3(3, 0.5, -2)), 0.0, 1e-12);
    EXPECT_TRUE(inside_closed_surface(mesh.vertices, mesh.faces, Vec3(0.1, 0.1, 0.1)));
    EXPECT_FALSE(inside_closed_surface(mesh.vertices, mesh.faces, Vec3(0.1, 5, 0.1)));
  }
}

TEST(WindingNumber, TorusTubeIsInsideItsHoleIsNot) {
  const TriangleMesh torus = make_torus(1.0, 0.25, 24);
  EXPECT_NEAR(winding_number(torus.vertices, torus.faces, Vec3(0, -1, 0)), 1.0, 1e-12);
  EXPECT_NEAR(winding_number(torus.vertices, torus.faces, Vec3::Zero()), 0.0, 1e-12);
  EXPECT_NEAR(winding_number(torus.vertices, torus.faces, Vec3(0, 0, 0.5)), 0.0, 1e-12);
}

TEST(WindingNumber, MirroredSolidWindsNegativelyAndStillCountsAsInside) {
  TriangleMesh mirrored = make_box({1, 1, 1});
  for (Vec3& v : mirrored.vertices) {
    v.x() = -v.x();
  }
  EXPECT_NEAR(winding_number(mirrored.vertices, mirrored.faces, Vec3(0.1, 0.2, 0.3)), -1.0, 1e-12);
  EXPECT_TRUE(inside_closed_surface(mirrored.vertices, mirrored.faces, Vec3(0.1, 0.2, 0.3)));
}

}  // namespace
}  // namespace affix
