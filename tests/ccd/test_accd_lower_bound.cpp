// The ACCD lower bounds (additive_ccd.hpp) against the queries themselves: never above the time of
// impact the query returns, on random, near, far, approaching, separating and resting configurations
// of point–triangle and edge–edge pairs; positive whenever the primitives' boxes are apart; and tmax
// where the query's early out answers tmax.
#include <gtest/gtest.h>

#include "affix/ccd/additive_ccd.hpp"
#include "affix/distance/edge_edge.hpp"
#include "affix/distance/point_triangle.hpp"
#include "ccd/brute_force.hpp"

namespace affix {
namespace {

using test::Random;

/// Eight points: a pair's positions near the origin at a random scale, and displacements from pure
/// approach to random motion to rest, some of them much larger than the gap.
struct Configuration {
  std::array<Vec3, 4> x, dx;
};

Configuration random_configuration(Random& rng) {
  Configuration c;
  const double size = rng.log_uniform(1e-3, 1.0), gap = rng.log_uniform(1e-6, 1.0) * size;
  for (int k = 0; k < 2; ++k) c.x[k] = size * rng.in_cube();
  for (int k = 2; k < 4; ++k) c.x[k] = size * rng.in_cube() + Vec3(0, 0, size + gap);
  const double speed = rng.log_uniform(1e-6, 10.0) * size;
  const Vec3 common = rng.in_cube();
  for (int k = 0; k < 4; ++k) c.dx[k] = rng.chance(0.2) ? Vec3::Zero() : Vec3(speed * (common + 0.3 * rng.in_cube()));
  if (rng.chance(0.5)) c.dx[2] -= Vec3(0, 0, speed), c.dx[3] -= Vec3(0, 0, speed);  // approach
  return c;
}

/// Whether the boxes of the first `na` and the last `4 − na`… points (the two primitives) are apart.
bool boxes_apart(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  for (int axis = 0; axis < 3; ++axis) {
    double a_lo = test::kInf, a_hi = -test::kInf, b_lo = test::kInf, b_hi = -test::kInf;
    for (const Vec3& p : a) a_lo = std::min(a_lo, p[axis]), a_hi = std::max(a_hi, p[axis]);
    for (const Vec3& p : b) b_lo = std::min(b_lo, p[axis]), b_hi = std::max(b_hi, p[axis]);
    if (a_hi < b_lo || b_hi < a_lo) return true;
  }
  return false;
}

TEST(AccdLowerBound, NeverAboveTheQueryAndPositiveWhenApart) {
  Random rng(2026);
  int positive = 0, full = 0, below_full = 0, tighter = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Configuration c = random_configuration(rng);
    const auto& [x, dx] = c;
    for (double tmax : {1.0, 0.3}) {
      // Point x[0] against the triangle x[1..3]; edges x[0]x[1] and x[2]x[3].
      const double pt_bound = point_triangle_accd_lower_bound(x[0], x[1], x[2], x[3], dx[0], dx[1], dx[2], dx[3], 0.0, 0.1, tmax);
      const CcdResult pt = point_triangle_accd(x[0], x[1], x[2], x[3], dx[0], dx[1], dx[2], dx[3], 0.1, tmax);
      const double ee_bound = edge_edge_accd_lower_bound(x[0], x[1], x[2], x[3], dx[0], dx[1], dx[2], dx[3], 0.0, 0.1, tmax);
      const CcdResult ee = edge_edge_accd(x[0], x[1], x[2], x[3], dx[0], dx[1], dx[2], dx[3], 0.1, tmax);
      EXPECT_LE(pt_bound, pt.toi) << "trial " << trial;
      EXPECT_LE(ee_bound, ee.toi) << "trial " << trial;
      // With the exact distance at t = 0 (what a cached reduction gives): still below, and tighter.
      const double pt_d0 = std::sqrt(point_triangle_distance(x[0], x[1], x[2], x[3]));
      const double ee_d0 = std::sqrt(edge_edge_distance(x[0], x[1], x[2], x[3]));
      const double pt_tight =
          point_triangle_accd_lower_bound(x[0], x[1], x[2], x[3], dx[0], dx[1], dx[2], dx[3], pt_d0, 0.1, tmax);
      const double ee_tight =
          edge_edge_accd_lower_bound(x[0], x[1], x[2], x[3], dx[0], dx[1], dx[2], dx[3], ee_d0, 0.1, tmax);
      EXPECT_LE(pt_tight, pt.toi) << "trial " << trial;
      EXPECT_LE(ee_tight, ee.toi) << "trial " << trial;
      EXPECT_GE(pt_tight, pt_bound);
      tighter += pt_tight > pt_bound;
      EXPECT_GE(pt_bound, 0.0);
      EXPECT_LE(ee_bound, tmax);
      if (boxes_apart({x[0]}, {x[1], x[2], x[3]})) {
        EXPECT_GT(pt_bound, 0.0) << "trial " << trial;
        ++positive;
      }
      if (boxes_apart({x[0], x[1]}, {x[2], x[3]})) {
        EXPECT_GT(ee_bound, 0.0) << "trial " << trial;
      }
      // The query's early out (no distance measured) is exactly where the bound reaches tmax, up to
      // the bound's slack.
      if (pt.iterations == 0 && pt.toi == tmax) ++full;
      if (pt_bound < tmax && pt.toi == tmax) ++below_full;
    }
  }
  EXPECT_GT(positive, 1000);
  EXPECT_GT(full, 100);
  EXPECT_GT(below_full, 100);  // a bound, not the answer: often below a query that reaches tmax
  EXPECT_GT(tighter, 1000);
}

TEST(AccdLowerBound, ZeroWhenTouchingOrNotFinite) {
  const Vec3 o = Vec3::Zero(), z = Vec3::UnitZ(), x = Vec3::UnitX(), y = Vec3::UnitY();
  EXPECT_EQ(point_triangle_accd_lower_bound(o, o, x, y, z, o, o, o), 0.0);  // the point is a vertex
  EXPECT_EQ(edge_edge_accd_lower_bound(o, x, o, y, z, z, o, o), 0.0);      // the edges share a point
  const Vec3 nan = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(point_triangle_accd_lower_bound(z, o, x, y, nan, o, o, o), 0.0);
  EXPECT_EQ(edge_edge_accd_lower_bound(z, z + x, o, y, o, o, nan, o), 0.0);
  // Apart and not moving relative to each other: the whole interval.
  EXPECT_EQ(point_triangle_accd_lower_bound(z, o, x, y, x, x, x, x, 0.0, 0.1, 0.7), 0.7);
}

}  // namespace
}  // namespace affix
