// The private distances of ccd/ against brute-force minimisation over the primitives' parameters, on
// random pairs and on the degenerate ones (parallel and collinear edges, zero-length edges, slivers,
// points in the plane or on an edge), plus constructions whose distance is known in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "affix/ccd/primitive_distance.hpp"
#include "ccd/brute_force.hpp"

namespace affix {
namespace {

using namespace ccd_detail;
using test::Random;

// Distances are compared, not their squares: the reference is exact to rounding of the squared value.
::testing::AssertionResult same_distance(double sq, double sq_ref, double tol = 1e-9) {
  const double d = std::sqrt(sq), d_ref = std::sqrt(sq_ref);
  if (std::abs(d - d_ref) <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "distance " << d << " vs brute force " << d_ref;
}

TEST(PrimitiveDistance, PointEdgeMatchesBruteForce) {
  Random rng(1);
  for (int k = 0; k < 2000; ++k) {
    const Vec3 p = rng.in_cube(), e0 = rng.in_cube(), e1 = k % 10 == 0 ? e0 : rng.in_cube();
    ASSERT_TRUE(
        same_distance(point_edge_distance_squared(p, e0, e1), test::brute_point_edge_distance_squared(p, e0, e1)));
  }
}

TEST(PrimitiveDistance, PointTriangleMatchesBruteForce) {
  Random rng(2);
  for (int k = 0; k < 600; ++k) {
    const Vec3 t0 = rng.in_cube(), t1 = rng.in_cube();
    Vec3 t2 = rng.in_cube();
    const int kind = k % 6;
    if (kind == 0) t2 = t0 + 0.7 * (t1 - t0);                      // collinear
    if (kind == 1) t2 = t0 + 1e-9 * rng.unit() + 0.3 * (t1 - t0);  // sliver
    Vec3 p = rng.in_cube();
    if (k % 5 == 0) p = t0 + rng.uniform(-0.5, 1.5) * (t1 - t0) + rng.uniform(-0.5, 1.5) * (t2 - t0);  // in the plane
    const double sq = point_triangle_distance_squared(p, t0, t1, t2);
    ASSERT_TRUE(same_distance(sq, test::brute_point_triangle_distance_squared(p, t0, t1, t2))) << "case " << k;
    // The result does not depend on the vertex order (up to the width of a sliver, 1e-9).
    const double tol = kind == 1 ? 1e-9 : 1e-12;
    ASSERT_NEAR(std::sqrt(sq), std::sqrt(point_triangle_distance_squared(p, t2, t0, t1)), tol) << "case " << k;
    ASSERT_NEAR(std::sqrt(sq), std::sqrt(point_triangle_distance_squared(p, t1, t0, t2)), tol) << "case " << k;
  }
}

TEST(PrimitiveDistance, EdgeEdgeMatchesBruteForce) {
  Random rng(3);
  for (int k = 0; k < 600; ++k) {
    const Vec3 a0 = rng.in_cube(), a1 = rng.in_cube();
    Vec3 b0 = rng.in_cube(), b1 = rng.in_cube();
    const int kind = k % 7;
    if (kind == 0) b1 = b0 + rng.uniform(-2.0, 2.0) * (a1 - a0);                      // parallel
    if (kind == 1) b1 = b0 + rng.uniform(-2.0, 2.0) * (a1 - a0) + 1e-9 * rng.unit();  // nearly parallel
    if (kind == 2) {                                                                  // collinear
      b0 = a0 + rng.uniform(-1.0, 2.0) * (a1 - a0);
      b1 = a0 + rng.uniform(-1.0, 2.0) * (a1 - a0);
    }
    if (kind == 3) b1 = b0;  // zero length
    if (kind == 4) {         // crossing at x: distance 0
      const Vec3 x = a0 + rng.uniform(0.0, 1.0) * (a1 - a0), d = rng.unit();
      const double f = rng.uniform(0.0, 1.0), length = rng.uniform(0.1, 2.0);
      b0 = x - f * length * d;
      b1 = x + (1.0 - f) * length * d;
    }
    const double sq = edge_edge_distance_squared(a0, a1, b0, b1);
    ASSERT_TRUE(same_distance(sq, test::brute_edge_edge_distance_squared(a0, a1, b0, b1))) << "case " << k;
    ASSERT_NEAR(std::sqrt(sq), std::sqrt(edge_edge_distance_squared(b0, b1, a0, a1)), 1e-12);
    ASSERT_NEAR(std::sqrt(sq), std::sqrt(edge_edge_distance_squared(a1, a0, b1, b0)), 1e-12);
  }
}

// Known distances down to 1e-12 of the size, where a relative error would show: a point at height h over
// a triangle's interior, a point beside an edge, two crossing edges h apart along their common normal,
// and nearly parallel edges h apart.
TEST(PrimitiveDistance, SmallKnownDistancesAreAccurate) {
  Random rng(4);
  for (int k = 0; k < 500; ++k) {
    const double h = rng.log_uniform(1e-12, 1e-2);
    const Vec3 t0 = rng.in_cube(), t1 = rng.in_cube(), t2 = rng.in_cube();
    const Vec3 n = (t1 - t0).cross(t2 - t0).normalized();
    const double b1 = rng.uniform(0.05, 0.45), b2 = rng.uniform(0.05, 0.45);
    const Vec3 q = t0 + b1 * (t1 - t0) + b2 * (t2 - t0);
    EXPECT_NEAR(std::sqrt(point_triangle_distance_squared(q + h * n, t0, t1, t2)), h, 1e-15 + 1e-9 * h);

    const Vec3 e = (t1 - t0).normalized();
    const Vec3 o = rng.unit_orthogonal(e);
    EXPECT_NEAR(std::sqrt(point_edge_distance_squared(t0 + 0.3 * (t1 - t0) + h * o, t0, t1)), h, 1e-15 + 1e-9 * h);

    const Vec3 u = rng.unit(), v = rng.unit_orthogonal(u);
    const Vec3 nn = u.cross(v);
    const Vec3 c = rng.in_cube();
    EXPECT_NEAR(
        std::sqrt(edge_edge_distance_squared(c - 0.4 * u, c + 0.6 * u, c + h * nn - 0.3 * v, c + h * nn + 0.5 * v)), h,
        1e-15 + 1e-9 * h);
    // Nearly parallel: b is a tilted by 1e-7 about the common normal, offset h along it. The distance
    // is h (the two lines cross in projection inside both segments).
    const Vec3 w = (u + 1e-7 * v).normalized();
    EXPECT_NEAR(
        std::sqrt(edge_edge_distance_squared(c - 0.5 * u, c + 0.5 * u, c + h * nn - 0.4 * w, c + h * nn + 0.4 * w)), h,
        1e-15 + 1e-6 * h);
  }
}

TEST(PrimitiveDistance, DegenerateFixedCases) {
  const Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0);
  // Everything at one point.
  EXPECT_DOUBLE_EQ(point_triangle_distance_squared(Vec3(0, 0, 2), o, o, o), 4.0);
  EXPECT_DOUBLE_EQ(edge_edge_distance_squared(o, o, Vec3(0, 3, 0), Vec3(0, 3, 0)), 9.0);
  // Collinear triangle: the distance to its longest edge.
  EXPECT_DOUBLE_EQ(point_triangle_distance_squared(Vec3(0.5, 2, 0), o, x, 0.5 * x), 4.0);
  // Overlapping collinear edges touch.
  EXPECT_DOUBLE_EQ(edge_edge_distance_squared(o, x, 0.5 * x, 2 * x), 0.0);
  // Parallel edges at distance 1, overlapping and disjoint in projection.
  EXPECT_DOUBLE_EQ(edge_edge_distance_squared(o, x, y, y + x), 1.0);
  EXPECT_DOUBLE_EQ(edge_edge_distance_squared(o, x, y + 2 * x, y + 3 * x), 2.0);
  // Point in the triangle's plane: inside 0, outside the distance to the nearest edge or vertex.
  EXPECT_DOUBLE_EQ(point_triangle_distance_squared(Vec3(0.2, 0.2, 0), o, x, y), 0.0);
  EXPECT_DOUBLE_EQ(point_triangle_distance_squared(Vec3(-1, 0.5, 0), o, x, y), 1.0);
  EXPECT_DOUBLE_EQ(point_triangle_distance_squared(Vec3(-1, -1, 0), o, x, y), 2.0);
}

}  // namespace
}  // namespace affix
