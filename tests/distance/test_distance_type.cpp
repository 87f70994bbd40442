// Closest-feature classification: every region of every pair by hand, the boundaries between regions
// (just inside and just outside), and the degenerate inputs (zero-length edges, collinear triangles,
// parallel edges). That the classified distance is the true minimum over thousands of configurations
// is checked against brute force in test_point_edge, test_point_triangle and test_edge_edge.
#include <gtest/gtest.h>

#include "affix/distance/distance_type.hpp"
#include "affix/distance/edge_edge.hpp"
#include "affix/distance/point_edge.hpp"
#include "affix/distance/point_triangle.hpp"
#include "distance/distance_test_support.hpp"

namespace affix {
namespace {

using PE = PointEdgeDistanceType;
using PT = PointTriangleDistanceType;
using EE = EdgeEdgeDistanceType;

TEST(PointEdgeDistanceType, EachRegion) {
  const Vec3 e0(0, 0, 0), e1(2, 0, 0);
  EXPECT_EQ(point_edge_distance_type(Vec3(-1, 1, 0), e0, e1), PE::P_E0);
  EXPECT_EQ(point_edge_distance_type(Vec3(3, 0, 1), e0, e1), PE::P_E1);
  EXPECT_EQ(point_edge_distance_type(Vec3(1, 1, 1), e0, e1), PE::P_E);
  EXPECT_EQ(point_edge_distance_type(Vec3(1, 0, 0), e0, e1), PE::P_E);  // on the edge
  EXPECT_EQ(point_edge_distance_type(Vec3(-1, 0, 0), e0, e1), PE::P_E0);  // on the line, beyond e0
}

TEST(PointEdgeDistanceType, JustInsideAndJustOutside) {
  const Vec3 e0(0, 0, 0), e1(2, 0, 0);
  constexpr double kDelta = 1e-12;
  EXPECT_EQ(point_edge_distance_type(Vec3(-kDelta, 1, 0), e0, e1), PE::P_E0);
  EXPECT_EQ(point_edge_distance_type(Vec3(kDelta, 1, 0), e0, e1), PE::P_E);
  EXPECT_EQ(point_edge_distance_type(Vec3(2 - kDelta, 0, 1), e0, e1), PE::P_E);
  EXPECT_EQ(point_edge_distance_type(Vec3(2 + kDelta, 0, 1), e0, e1), PE::P_E1);
  // The distance is continuous across the boundary: both sides' sub-distances agree at it.
  const Vec3 p(0, 0.3, 0.4);
  EXPECT_NEAR(point_edge_distance(p, e0, e1, PE::P_E0), point_edge_distance(p, e0, e1, PE::P_E), 1e-15);
}

TEST(PointEdgeDistanceType, DegenerateEdgeIsItsVertex) {
  const Vec3 e(1, 2, 3);
  EXPECT_EQ(point_edge_distance_type(Vec3(0, 0, 0), e, e), PE::P_E0);
  EXPECT_DOUBLE_EQ(point_edge_distance(Vec3(0, 0, 0), e, e), 14.0);
}

// The unit right triangle in the z = 0 plane; E0 = (t0,t1) on y = 0, E1 = (t1,t2) the hypotenuse,
// E2 = (t2,t0) on x = 0.
const Vec3 kT0(0, 0, 0), kT1(1, 0, 0), kT2(0, 1, 0);

TEST(PointTriangleDistanceType, EachRegion) {
  const auto type = [](const Vec3& p) { return point_triangle_distance_type(p, kT0, kT1, kT2); };
  EXPECT_EQ(type(Vec3(0.2, 0.2, 1)), PT::P_T);
  EXPECT_EQ(type(Vec3(0.2, 0.2, -1)), PT::P_T);
  EXPECT_EQ(type(Vec3(0.2, 0.2, 0)), PT::P_T);  // on the triangle
  EXPECT_EQ(type(Vec3(-1, -1, 0.5)), PT::P_T0);
  EXPECT_EQ(type(Vec3(2, -0.5, 0.3)), PT::P_T1);
  EXPECT_EQ(type(Vec3(-0.5, 2, 0)), PT::P_T2);
  EXPECT_EQ(type(Vec3(0.5, -1, 0.2)), PT::P_E0);
  EXPECT_EQ(type(Vec3(1, 1, 0.1)), PT::P_E1);
  EXPECT_EQ(type(Vec3(-1, 0.5, -0.3)), PT::P_E2);
}

TEST(PointTriangleDistanceType, ValuesInEachRegion) {
  // Above the interior: the height squared; beyond a vertex: the squared distance to that vertex.
  EXPECT_NEAR(point_triangle_distance(Vec3(0.2, 0.2, 1.5), kT0, kT1, kT2), 2.25, 1e-14);
  EXPECT_NEAR(point_triangle_distance(Vec3(-1, -2, 2), kT0, kT1, kT2), 9.0, 1e-14);
  EXPECT_NEAR(point_triangle_distance(Vec3(3, -1, 0), kT0, kT1, kT2), 5.0, 1e-14);
  // Beside an edge: the squared distance to the edge's line.
  EXPECT_NEAR(point_triangle_distance(Vec3(0.5, -3, 4), kT0, kT1, kT2), 25.0, 1e-13);
  EXPECT_NEAR(point_triangle_distance(Vec3(1, 1, 0), kT0, kT1, kT2), 0.5, 1e-14);
}

TEST(PointTriangleDistanceType, JustInsideAndJustOutside) {
  const auto type = [](const Vec3& p) { return point_triangle_distance_type(p, kT0, kT1, kT2); };
  constexpr double kDelta = 1e-12;
  // Face / edge E0 boundary (the plane y = 0).
  EXPECT_EQ(type(Vec3(0.5, kDelta, 0.7)), PT::P_T);
  EXPECT_EQ(type(Vec3(0.5, -kDelta, 0.7)), PT::P_E0);
  // Face / hypotenuse boundary (x + y = 1).
  EXPECT_EQ(type(Vec3(0.3, 0.7 - kDelta, 0.2)), PT::P_T);
  EXPECT_EQ(type(Vec3(0.3, 0.7 + kDelta, 0.2)), PT::P_E1);
  // Edge / vertex boundaries are decided by comparing the edges' distances, which differ by δ² there:
  // a δ whose square rounding can resolve. (Closer still, either answer is right to rounding.)
  constexpr double kVertexDelta = 1e-6;
  // Edge E0 / vertex t1 boundary (x = 1, y < 0).
  EXPECT_EQ(type(Vec3(1 - kVertexDelta, -1, 0.5)), PT::P_E0);
  EXPECT_EQ(type(Vec3(1 + kVertexDelta, -1, 0.5)), PT::P_T1);
  // Edge E2 / vertex t0 boundary (y = 0, x < 0).
  EXPECT_EQ(type(Vec3(-1, kVertexDelta, 0.5)), PT::P_E2);
  EXPECT_EQ(type(Vec3(-1, -kVertexDelta, 0.5)), PT::P_T0);
  // Continuity: on a boundary the two sides' sub-distances agree.
  const auto d = [](const Vec3& p, PT t) { return point_triangle_distance(p, kT0, kT1, kT2, t); };
  EXPECT_NEAR(d(Vec3(0.5, 0, 0.7), PT::P_T), d(Vec3(0.5, 0, 0.7), PT::P_E0), 1e-15);
  EXPECT_NEAR(d(Vec3(1, -1, 0.5), PT::P_E0), d(Vec3(1, -1, 0.5), PT::P_T1), 1e-15);
  EXPECT_NEAR(d(Vec3(0.3, 0.7, 0.2), PT::P_T), d(Vec3(0.3, 0.7, 0.2), PT::P_E1), 1e-15);
}

TEST(PointTriangleDistanceType, AlmostOnAVertex) {
  test::Rng rng(5);
  for (const Vec3& t : {kT0, kT1, kT2}) {
    for (int i = 0; i < 100; ++i) {
      const Vec3 p = t + 1e-9 * test::random_unit(rng);
      const double d = point_triangle_distance(p, kT0, kT1, kT2);
      EXPECT_LE(d, (p - t).squaredNorm() * (1 + 1e-12));
      EXPECT_NEAR(d, test::reference_point_triangle(p, kT0, kT1, kT2), 1e-24);
    }
  }
}

TEST(PointTriangleDistanceType, DegenerateTrianglesUseEdgesAndVertices) {
  const Vec3 p(0.3, 0.4, 0.5);
  // Collinear vertices, two coincident vertices, all coincident: never the (undefined) plane.
  const std::array<std::array<Vec3, 3>, 4> triangles{{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)},
                                                      {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 0, 0)},
                                                      {Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(0, 0, 0)},
                                                      {Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1)}}};
  for (const auto& t : triangles) {
    const PT type = point_triangle_distance_type(p, t[0], t[1], t[2]);
    EXPECT_NE(type, PT::P_T);
    EXPECT_NEAR(point_triangle_distance(p, t[0], t[1], t[2], type),
                test::reference_point_triangle(p, t[0], t[1], t[2]), 1e-14);
  }
  // A sliver of relative height 1e-9 is degenerate too, and its boundary distance is exact to 1e-18.
  const Vec3 s0(0, 0, 0), s1(1, 0, 0), s2(0.5, 1e-9, 0);
  EXPECT_NE(point_triangle_distance_type(Vec3(0.5, 0, 1), s0, s1, s2), PT::P_T);
  EXPECT_NEAR(point_triangle_distance(Vec3(0.5, 0, 1), s0, s1, s2), 1.0, 1e-15);
}

// Edge a on the x axis from 0 to 1.
const Vec3 kA0(0, 0, 0), kA1(1, 0, 0);

TEST(EdgeEdgeDistanceType, EachCase) {
  const auto type = [](const Vec3& b0, const Vec3& b1) { return edge_edge_distance_type(kA0, kA1, b0, b1); };
  EXPECT_EQ(type(Vec3(0.5, -1, 1), Vec3(0.5, 1, 1)), EE::EA_EB);
  EXPECT_EQ(type(Vec3(-1, -1, 1), Vec3(-1, 1, 1)), EE::EA0_EB);
  EXPECT_EQ(type(Vec3(2, -1, 1), Vec3(2, 1, 1)), EE::EA1_EB);
  EXPECT_EQ(type(Vec3(0.5, 0, 1), Vec3(0.5, 0, 3)), EE::EA_EB0);
  EXPECT_EQ(type(Vec3(0.5, 0, 3), Vec3(0.5, 0, 1)), EE::EA_EB1);
  EXPECT_EQ(type(Vec3(-1, 0, 1), Vec3(-1, 0, 3)), EE::EA0_EB0);
  EXPECT_EQ(type(Vec3(-1, 0, 3), Vec3(-1, 0, 1)), EE::EA0_EB1);
  EXPECT_EQ(type(Vec3(2, 0, 1), Vec3(2, 0, 3)), EE::EA1_EB0);
  EXPECT_EQ(type(Vec3(2, 0, 3), Vec3(2, 0, 1)), EE::EA1_EB1);
}

TEST(EdgeEdgeDistanceType, ValuesInEachCase) {
  const auto d = [](const Vec3& b0, const Vec3& b1) { return edge_edge_distance(kA0, kA1, b0, b1); };
  EXPECT_NEAR(d(Vec3(0.5, -1, 1), Vec3(0.5, 1, 1)), 1.0, 1e-14);  // crossing above: the height
  EXPECT_NEAR(d(Vec3(-1, -1, 1), Vec3(-1, 1, 1)), 2.0, 1e-14);    // beyond ea0
  EXPECT_NEAR(d(Vec3(0.5, 0, 1), Vec3(0.5, 0, 3)), 1.0, 1e-14);   // eb0 above a's interior
  EXPECT_NEAR(d(Vec3(2, 0, 3), Vec3(2, 0, 1)), 2.0, 1e-14);       // end to end
}

TEST(EdgeEdgeDistanceType, JustInsideAndJustOutside) {
  const auto type = [](const Vec3& b0, const Vec3& b1) { return edge_edge_distance_type(kA0, kA1, b0, b1); };
  constexpr double kDelta = 1e-12;
  // Crossing near a's end: the common normal's foot leaves a at s = 0.
  EXPECT_EQ(type(Vec3(kDelta, -1, 1), Vec3(kDelta, 1, 1)), EE::EA_EB);
  EXPECT_EQ(type(Vec3(-kDelta, -1, 1), Vec3(-kDelta, 1, 1)), EE::EA0_EB);
  // ... and leaves b at t = 1.
  EXPECT_EQ(type(Vec3(0.5, -1, 1), Vec3(0.5, -kDelta, 1)), EE::EA_EB1);
  EXPECT_EQ(type(Vec3(0.5, -1, 1), Vec3(0.5, kDelta, 1)), EE::EA_EB);
  // Continuity at the boundary.
  const Vec3 b0(0, -1, 1), b1(0, 1, 1);
  EXPECT_NEAR(edge_edge_distance(kA0, kA1, b0, b1, EE::EA_EB), edge_edge_distance(kA0, kA1, b0, b1, EE::EA0_EB),
              1e-15);
}

TEST(EdgeEdgeDistanceType, ParallelEdgesUseEndPointCases) {
  // Parallel, anti-parallel, overlapping, collinear and disjoint: the line-line distance is undefined,
  // the classification falls back to a vertex case whose distance is exact.
  const std::array<std::array<Vec3, 2>, 5> bs{{{Vec3(0.3, 1, 0), Vec3(1.3, 1, 0)},
                                               {Vec3(1.3, 0, 2), Vec3(0.3, 0, 2)},
                                               {Vec3(0.5, 0, 0), Vec3(0.7, 0, 0)},
                                               {Vec3(-2, 0, 0), Vec3(3, 0, 0)},
                                               {Vec3(2, 1, 1), Vec3(5, 1, 1)}}};
  for (const auto& b : bs) {
    const EE type = edge_edge_distance_type(kA0, kA1, b[0], b[1]);
    EXPECT_NE(type, EE::EA_EB);
    EXPECT_NEAR(edge_edge_distance(kA0, kA1, b[0], b[1], type), test::reference_edge_edge(kA0, kA1, b[0], b[1]),
                1e-14);
  }
}

TEST(EdgeEdgeDistanceType, NearlyParallelEdges) {
  // Crossing at a tiny angle over a's middle at height 0.1: between the parallel threshold and
  // well-conditioned, the classified distance stays within rounding of the true one.
  for (double angle : {1e-3, 1e-5, 1e-7, 1e-8, 1e-10}) {
    const Vec3 b0(0, -0.5 * angle, 0.1), b1(1, 0.5 * angle, 0.1);
    const EE type = edge_edge_distance_type(kA0, kA1, b0, b1);
    if (angle * angle <= kParallelEdges) {
      EXPECT_NE(type, EE::EA_EB) << angle;
    }
    EXPECT_NEAR(edge_edge_distance(kA0, kA1, b0, b1, type), 0.01, 1e-14) << angle;
  }
}

TEST(EdgeEdgeDistanceType, DegenerateEdgesUseEndPointCases) {
  const Vec3 b0(0.5, -1, 1), b1(0.5, 1, 1), point(0.2, 0.3, 0.4);
  EXPECT_EQ(edge_edge_distance_type(point, point, b0, b1), EE::EA0_EB);
  EXPECT_EQ(edge_edge_distance_type(kA0, kA1, point, point), EE::EA_EB0);
  EXPECT_EQ(edge_edge_distance_type(point, point, point, point), EE::EA0_EB0);
  EXPECT_EQ(edge_edge_distance_type(point, point, Vec3(1, 1, 1), Vec3(1, 1, 1)), EE::EA0_EB0);
}

TEST(DistanceType, Names) {
  EXPECT_STREQ(to_string(PE::P_E), "P_E");
  EXPECT_STREQ(to_string(PT::P_E2), "P_E2");
  EXPECT_STREQ(to_string(EE::EA1_EB0), "EA1_EB0");
  EXPECT_STREQ(to_string(EE::EA_EB), "EA_EB");
}

}  // namespace
}  // namespace affix
