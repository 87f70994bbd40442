// Segment against triangle: crossings, misses, touching at a vertex, an edge or a face (which count),
// and segments lying in the triangle's plane, where a ray-style test would divide by zero.
#include <gtest/gtest.h>

#include "affix/geometry/segment_triangle.hpp"

namespace affix {
namespace {

constexpr double kTol = 1e-12;

// The triangle (0,0,0), (1,0,0), (0,1,0) in the z = 0 plane.
bool meets(const Vec3& s0, const Vec3& s1, double tol = kTol) {
  return segment_meets_triangle(s0, s1, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), tol);
}

TEST(SegmentTriangle, CrossingThroughTheInteriorMeets) {
  EXPECT_TRUE(meets({0.2, 0.2, -1}, {0.2, 0.2, 1}));
  EXPECT_TRUE(meets({0.2, 0.2, 1}, {0.2, 0.2, -1}));  // either direction
  EXPECT_TRUE(meets({-1, -1, -1}, {1.4, 1.4, 1}));    // oblique, through (0.2, 0.2, 0)
}

TEST(SegmentTriangle, MissesBesideOrShortOfThePlane) {
  EXPECT_FALSE(meets({0.6, 0.6, -1}, {0.6, 0.6, 1}));    // beside the hypotenuse
  EXPECT_FALSE(meets({-0.1, 0.2, -1}, {-0.1, 0.2, 1}));  // beside the leg x = 0
  EXPECT_FALSE(meets({0.2, 0.2, 0.5}, {0.2, 0.2, 1}));   // above, not reaching
  EXPECT_FALSE(meets({0.2, 0.2, -1}, {0.2, 0.2, -1e-6}));
  EXPECT_FALSE(meets({-1, -1, 1}, {2, 2, 1}));  // parallel, off the plane
}

TEST(SegmentTriangle, TouchingCounts) {
  EXPECT_TRUE(meets({0.2, 0.2, 0}, {0.2, 0.2, 1}));      // endpoint on the face
  EXPECT_TRUE(meets({0, 0, -1}, {0, 0, 1}));             // through a vertex
  EXPECT_TRUE(meets({0.5, 0.5, -1}, {0.5, 0.5, 1}));     // through the hypotenuse
  EXPECT_TRUE(meets({1, 0, 0}, {2, 0, 3}));              // endpoint at a vertex
  EXPECT_TRUE(meets({0.2, 0.2, 1e-13}, {0.2, 0.2, 1}));  // within the tolerance
  EXPECT_FALSE(meets({0.2, 0.2, 1e-9}, {0.2, 0.2, 1}));  // beyond it
  EXPECT_TRUE(meets({0.2, 0.2, 1e-9}, {0.2, 0.2, 1}, 1e-8));
}

TEST(SegmentTriangle, CoplanarSegments) {
  EXPECT_TRUE(meets({0.1, 0.1, 0}, {0.2, 0.3, 0}));        // inside
  EXPECT_TRUE(meets({-1, 0.3, 0}, {2, 0.3, 0}));           // crossing both legs, endpoints outside
  EXPECT_TRUE(meets({-1, 0, 0}, {-0.0, 0, 0}));            // ending at a vertex
  EXPECT_TRUE(meets({0.5, -1, 0}, {0.5, 0, 0}));           // ending on an edge
  EXPECT_TRUE(meets({0, 1, 0}, {1, 0, 0}));                // along the hypotenuse
  EXPECT_TRUE(meets({-1, 2, 0}, {2, -1, 0}));              // containing the hypotenuse
  EXPECT_FALSE(meets({1, 1, 0}, {2, 0.5, 0}));             // beside
  EXPECT_FALSE(meets({-1, 2.1, 0}, {2.1, -1, 0}));         // parallel to the hypotenuse, outside
  EXPECT_TRUE(meets({-1, 0.3, 1e-13}, {2, 0.3, -1e-13}));  // in the plane up to the tolerance
}

TEST(SegmentTriangle, DegenerateInputs) {
  EXPECT_TRUE(meets({0.2, 0.2, 0}, {0.2, 0.2, 0}));   // a point on the face
  EXPECT_FALSE(meets({0.2, 0.2, 1}, {0.2, 0.2, 1}));  // a point off it
  EXPECT_FALSE(segment_meets_triangle({0.5, 0, -1}, {0.5, 0, 1}, Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), kTol));
}

TEST(SegmentTriangle, ToleranceIsADistanceSoItScalesWithTheGeometry) {
  // The same configuration scaled by s meets exactly when tol is scaled by s.
  for (double s : {1e-6, 1.0, 1e6}) {
    const Vec3 t0(0, 0, 0), t1(s, 0, 0), t2(0, s, 0);
    EXPECT_TRUE(segment_meets_triangle(Vec3(0.6, 0.4, 1) * s, Vec3(0.6, 0.4, -1) * s, t0, t1, t2, 0.01 * s));
    EXPECT_FALSE(segment_meets_triangle(Vec3(0.6, 0.42, 1) * s, Vec3(0.6, 0.42, -1) * s, t0, t1, t2, 0.01 * s));
  }
}

}  // namespace
}  // namespace affix
