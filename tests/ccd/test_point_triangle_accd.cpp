// Point–triangle additive CCD against brute-force time sampling (accd_harness.hpp states the checks), on
// random, grazing, parallel, already-close, translating, rotating, resting and falling configurations.
// Run the binary to see each category's statistics.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "affix/ccd/additive_ccd.hpp"
#include "affix/distance/edge_edge.hpp"
#include "affix/distance/point_edge.hpp"
#include "affix/distance/point_point.hpp"
#include "affix/distance/point_triangle.hpp"
#include "ccd/accd_harness.hpp"

namespace affix {
namespace {

using test::AccdStats;
using test::Random;

constexpr double kS = 0.1;
constexpr int kCases = 400;

struct PtCase {
  Vec3 p, t0, t1, t2;      // positions at t = 0
  Vec3 dp, dt0, dt1, dt2;  // displacements over [0, 1]

  double distance(double t) const {
    return std::sqrt(point_triangle_distance(p + t * dp, t0 + t * dt0, t1 + t * dt1, t2 + t * dt2));
  }
  CcdResult accd(double s = kS, double tmax = 1.0, int cap = 1'000'000, double xi = 0.0) const {
    return point_triangle_accd(p, t0, t1, t2, dp, dt0, dt1, dt2, s, tmax, cap, xi);
  }
  void add_common(const Vec3& w) {
    dp += w;
    dt0 += w;
    dt1 += w;
    dt2 += w;
  }
  std::string str() const {
    std::ostringstream o;
    o << std::setprecision(17);
    for (const Vec3* v : {&p, &t0, &t1, &t2, &dp, &dt0, &dt1, &dt2}) o << "(" << v->transpose() << ") ";
    return o.str();
  }
};

/// A triangle with no short edge and no small angle: vertices, unit normal.
struct Triangle {
  Vec3 v[3];
  Vec3 n;
  Vec3 point(double b1, double b2) const { return v[0] + b1 * (v[1] - v[0]) + b2 * (v[2] - v[0]); }
};

Triangle good_triangle(Random& rng) {
  while (true) {
    Triangle tri{{rng.in_cube(), rng.in_cube(), rng.in_cube()}, Vec3::Zero()};
    const Vec3 n = (tri.v[1] - tri.v[0]).cross(tri.v[2] - tri.v[0]);
    const double shortest =
        std::min({(tri.v[1] - tri.v[0]).norm(), (tri.v[2] - tri.v[1]).norm(), (tri.v[0] - tri.v[2]).norm()});
    const double longest =
        std::max({(tri.v[1] - tri.v[0]).norm(), (tri.v[2] - tri.v[1]).norm(), (tri.v[0] - tri.v[2]).norm()});
    if (shortest > 0.4 && n.norm() > 0.3 * longest * longest) {
      tri.n = n.normalized();
      return tri;
    }
  }
}

PtCase resting(const Triangle& tri, const Vec3& p) {
  return {p, tri.v[0], tri.v[1], tri.v[2], Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
}

/// Runs `make` kCases times, checks each case and prints the category's statistics.
template <class Make>
AccdStats run_category(const std::string& name, std::uint64_t seed, Make make, int cases = kCases) {
  AccdStats stats("point-triangle " + name);
  Random rng(seed);
  for (int k = 0; k < cases; ++k) {
    const PtCase c = make(rng);
    test::check_accd(
        stats, [&](double t) { return c.distance(t); }, c.accd(), kS, 1.0, c.str());
  }
  stats.print();
  EXPECT_EQ(stats.failures, 0) << stats.name;
  return stats;
}

TEST(PointTriangleAccd, Random) {
  run_category("random", 11, [](Random& rng) {
    return PtCase{rng.in_cube(),  rng.in_cube(),  rng.in_cube(),  rng.in_cube(),
                  rng.in_cube(2), rng.in_cube(2), rng.in_cube(2), rng.in_cube(2)};
  });
}

// The point passes outside an edge at the exact smallest distance δ ∈ [1e-9, 0.1] at time t_c: with o the
// unit offset from the edge (outward in the plane, tilted by φ out of it) and the relative velocity
// orthogonal to o, the distance is ≥ δ all along and δ at t_c.
TEST(PointTriangleAccd, GrazingMiss) {
  const auto stats = run_category("grazing miss", 12, [](Random& rng) {
    const Triangle tri = good_triangle(rng);
    const int k = static_cast<int>(rng.uniform(0.0, 3.0)) % 3;
    const Vec3 a = tri.v[k], b = tri.v[(k + 1) % 3], opposite = tri.v[(k + 2) % 3];
    const Vec3 e = (b - a).normalized();
    Vec3 out = tri.n.cross(e);
    if (out.dot(opposite - a) > 0.0) out = -out;
    const double phi = rng.uniform(-1.3, 1.3), delta = rng.log_uniform(1e-9, 1e-1), tc = rng.uniform(0.2, 0.8);
    const Vec3 o = std::cos(phi) * out + std::sin(phi) * tri.n;
    const Vec3 pc = a + rng.uniform(0.05, 0.95) * (b - a) + delta * o;
    const Vec3 v = rng.uniform(-0.5, 0.5) * e + rng.sign() * rng.uniform(0.5, 2.0) * e.cross(o);
    PtCase c = resting(tri, pc - tc * v);
    c.dp = v;
    c.add_common(rng.in_cube());
    EXPECT_NEAR(c.distance(tc), delta, 1e-14 + 1e-9 * delta);
    // The reference finds the dip, however narrow (its width is about δ / |v|).
    EXPECT_NEAR(test::TrajectoryReference([&](double t) { return c.distance(t); }, 1.0, 2048).minimum(), delta,
                1e-14 + 1e-9 * delta);
    return c;
  });
  EXPECT_EQ(stats.impacts, 0);
}

// The point crosses the triangle's plane δ ∈ [1e-9, 0.1] inside an edge at t_c: a true impact there.
TEST(PointTriangleAccd, GrazingHit) {
  const auto stats = run_category("grazing hit", 13, [](Random& rng) {
    while (true) {
      const Triangle tri = good_triangle(rng);
      const int k = static_cast<int>(rng.uniform(0.0, 3.0)) % 3;
      const Vec3 a = tri.v[k], b = tri.v[(k + 1) % 3], c = tri.v[(k + 2) % 3];
      const Vec3 e = (b - a).normalized();
      Vec3 in = tri.n.cross(e);
      if (in.dot(c - a) < 0.0) in = -in;
      const double delta = rng.log_uniform(1e-9, 1e-1), tc = rng.uniform(0.2, 0.8);
      const Vec3 pc = a + rng.uniform(0.05, 0.95) * (b - a) + delta * in;
      if (point_triangle_distance(pc, a, b, c) > 1e-28) continue;  // outside, near a corner
      const Vec3 v =
          rng.uniform(-0.5, 0.5) * e + rng.uniform(-0.5, 0.5) * in + rng.sign() * rng.uniform(0.3, 2.0) * tri.n;
      PtCase cs = resting(tri, pc - tc * v);
      cs.dp = v;
      cs.add_common(rng.in_cube());
      return cs;
    }
  });
  EXPECT_EQ(stats.impacts, kCases);
}

// The point slides at a height h ∈ [1e-3, 0.3] over the triangle's plane; the triangle translates or
// deforms within its plane (and everything shares a random translation).
TEST(PointTriangleAccd, Parallel) {
  const auto stats = run_category("parallel", 14, [](Random& rng) {
    const Triangle tri = good_triangle(rng);
    const auto in_plane = [&](const Vec3& x) { return Vec3(x - x.dot(tri.n) * tri.n); };
    const double h = rng.log_uniform(1e-3, 0.3);
    PtCase c = resting(tri, tri.point(rng.uniform(-0.5, 1.5), rng.uniform(-0.5, 1.5)) + rng.sign() * h * tri.n);
    c.dp = in_plane(rng.in_cube(2));
    if (rng.chance(0.5)) {
      const Vec3 w = in_plane(rng.in_cube());
      c.dt0 = c.dt1 = c.dt2 = w;
    } else {
      c.dt0 = in_plane(rng.in_cube(0.5));
      c.dt1 = in_plane(rng.in_cube(0.5));
      c.dt2 = in_plane(rng.in_cube(0.5));
    }
    c.add_common(rng.in_cube());
    return c;
  });
  EXPECT_EQ(stats.impacts, 0);
}

// d₀ = 1e-6 of the triangle's size: over the interior or beside an edge, any motion.
TEST(PointTriangleAccd, AlreadyClose) {
  run_category("already close", 15, [](Random& rng) {
    const Triangle tri = good_triangle(rng);
    Vec3 p;
    if (rng.chance(0.5)) {
      const double b1 = rng.uniform(0.05, 0.9);
      p = tri.point(b1, rng.uniform(0.05, 0.95 - b1)) + rng.sign() * 1e-6 * tri.n;
    } else {
      const Vec3 a = tri.v[0], b = tri.v[1], e = (b - a).normalized();
      Vec3 out = tri.n.cross(e);
      if (out.dot(tri.v[2] - a) > 0.0) out = -out;
      const double phi = rng.uniform(-1.5, 1.5);
      p = a + rng.uniform(0.05, 0.95) * (b - a) + 1e-6 * (std::cos(phi) * out + std::sin(phi) * tri.n);
    }
    PtCase c = resting(tri, p);
    c.dp = rng.in_cube();
    c.dt0 = rng.in_cube();
    c.dt1 = rng.in_cube();
    c.dt2 = rng.in_cube();
    return c;
  });
}

// All four vertices share one displacement: no distance changes, so the full step is safe.
TEST(PointTriangleAccd, PureTranslation) {
  const auto stats = run_category("pure translation", 16, [](Random& rng) {
    PtCase c{rng.in_cube(), rng.in_cube(), rng.in_cube(), rng.in_cube(),
             Vec3::Zero(),  Vec3::Zero(),  Vec3::Zero(),  Vec3::Zero()};
    c.add_common(rng.in_cube(3));
    return c;
  });
  EXPECT_EQ(stats.full_steps, stats.cases);
}

// The triangle turns rigidly by up to 1.5 rad about a nearby centre (its vertices get different,
// linearised displacements) while the point, above it, moves down by up to three times its height.
TEST(PointTriangleAccd, RotationLike) {
  run_category("rotation-like", 17, [](Random& rng) {
    const Triangle tri = good_triangle(rng);
    const double h = rng.uniform(0.05, 1.0);
    PtCase c = resting(tri, tri.point(rng.uniform(0.0, 0.6), rng.uniform(0.0, 0.4)) + h * tri.n);
    const Mat3 R = rng.rotation(1.5);
    const Vec3 centre = (tri.v[0] + tri.v[1] + tri.v[2]) / 3.0 + rng.in_cube(0.5);
    c.dt0 = R * (c.t0 - centre) + centre - c.t0;
    c.dt1 = R * (c.t1 - centre) + centre - c.t1;
    c.dt2 = R * (c.t2 - centre) + centre - c.t2;
    c.dp = -rng.uniform(0.0, 3.0) * h * tri.n + rng.in_cube(0.3);
    c.add_common(rng.in_cube());
    return c;
  });
}

// A point and a triangle whose boxes are at least 1 apart, moving slowly: where (1 − s)·gap ≥ l_p
// (additive_ccd.hpp's early out) the full step comes back with no distance evaluated; beyond it the
// iteration runs. The harness checks both against brute-force sampling.
TEST(PointTriangleAccd, FarPairsTakeTheFullStepWithoutDistances) {
  int early = 0;
  const auto stats = run_category("far, slow", 19, [&](Random& rng) {
    PtCase c{rng.in_cube() + Vec3(3, 0, 0), rng.in_cube(), rng.in_cube(), rng.in_cube(),
             Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    const double gap = c.p.x() - std::max({c.t0.x(), c.t1.x(), c.t2.x()});
    // The point alone moves, at a speed s·|dp| with l_p ≤ |dp|: below (1 − s)·gap on half the cases.
    const double speed = (rng.chance(0.5) ? rng.uniform(0.0, 0.95) : rng.uniform(1.05, 1.5)) * (1.0 - kS) * gap;
    c.dp = speed * rng.unit();
    test::count_early_out(c.accd(), early);
    return c;
  });
  test::expect_both_sides_of_the_early_out(stats, early);
}

TEST(PointTriangleAccd, ZeroDisplacement) {
  const auto stats = run_category("zero displacement", 18, [](Random& rng) {
    return PtCase{rng.in_cube(), rng.in_cube(), rng.in_cube(), rng.in_cube(),
                  Vec3::Zero(),  Vec3::Zero(),  Vec3::Zero(),  Vec3::Zero()};
  });
  EXPECT_EQ(stats.full_steps, stats.cases);
  EXPECT_EQ(stats.total_iterations, 0);
}

// A point falling straight (along the normal) onto a triangle's interior from a height h ∈ [1e-3, 1],
// reaching the plane at t = 1/k, k ∈ [1.2, 3]: ACCD's bound is tight here, so toi should be the time
// t_s = (1 − s)/k where the distance reaches s·d₀, not a fraction of it.
TEST(PointTriangleAccd, StraightFallStopsAtTheGap) {
  const auto stats = run_category("straight fall", 19, [](Random& rng) {
    const Triangle tri = good_triangle(rng);
    const double b1 = rng.uniform(0.15, 0.7), b2 = rng.uniform(0.15, 0.85 - b1);
    const double h = rng.log_uniform(1e-3, 1.0), k = rng.uniform(1.2, 3.0), side = rng.sign();
    PtCase c = resting(tri, tri.point(b1, b2) + side * h * tri.n);
    c.dp = -side * k * h * tri.n;
    if (rng.chance(0.5)) c.add_common(rng.in_cube());
    const CcdResult r = c.accd();
    EXPECT_NEAR(r.toi, (1.0 - kS) / k, 1e-9);
    EXPECT_LE(r.iterations, 3);
    return c;
  });
  EXPECT_EQ(stats.impacts, kCases);
  EXPECT_GE(stats.min_ratio(), 0.99);
  EXPECT_LE(stats.max_ratio(), 1.0 + 1e-9);
}

// A shorter interval: the reference and the CCD both stop at tmax.
TEST(PointTriangleAccd, ShorterInterval) {
  AccdStats stats("point-triangle tmax = 0.4");
  Random rng(20);
  for (int k = 0; k < kCases; ++k) {
    const PtCase c{rng.in_cube(),  rng.in_cube(),  rng.in_cube(),  rng.in_cube(),
                   rng.in_cube(2), rng.in_cube(2), rng.in_cube(2), rng.in_cube(2)};
    test::check_accd(
        stats, [&](double t) { return c.distance(t); }, c.accd(kS, 0.4), kS, 0.4, c.str());
  }
  stats.print();
  EXPECT_EQ(stats.failures, 0);
}

// A minimum distance ξ: the CCD works on dist − ξ (and the checks too). Other separation ratios.
TEST(PointTriangleAccd, MinimumDistanceAndOtherRatios) {
  Random rng(21);
  for (const double s : {0.01, 0.1, 0.5, 0.9}) {
    for (const double xi : {0.0, 1e-3, 0.05}) {
      AccdStats stats("point-triangle s, ξ");
      for (int k = 0; k < 30; ++k) {
        const Triangle tri = good_triangle(rng);
        PtCase c =
            resting(tri, tri.point(rng.uniform(0.0, 0.5), rng.uniform(0.0, 0.5)) + rng.uniform(0.06, 0.5) * tri.n);
        c.dp = rng.in_cube();
        c.dt0 = rng.in_cube(0.5);
        c.dt1 = rng.in_cube(0.5);
        c.dt2 = rng.in_cube(0.5);
        test::check_accd(
            stats, [&](double t) { return c.distance(t); }, c.accd(s, 1.0, 1'000'000, xi), s, 1.0, c.str(), xi);
      }
      EXPECT_EQ(stats.failures, 0) << "s = " << s << ", ξ = " << xi;
    }
  }
  // Within ξ at the start: no step at all.
  const Triangle tri = good_triangle(rng);
  const PtCase c = resting(tri, tri.point(0.2, 0.2) + 0.01 * tri.n);
  EXPECT_EQ(c.accd(kS, 1.0, 1'000'000, 0.02).toi, 0.0);
}

// A point sliding at 1e-4 over a triangle needs thousands of steps: with a cap of 100 the query says so,
// and its toi is still safe (no impact, d(toi) ≥ s·d₀); with the default cap it reaches t = 1.
TEST(PointTriangleAccd, IterationCapIsReportedAndConservative) {
  const Vec3 t0(0, 0, 0), t1(2, 0, 0), t2(0, 2, 0);
  const PtCase c{Vec3(0.1, 0.5, 1e-4), t0, t1, t2, Vec3(1.0, 0.0, 0.0), Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  const CcdResult capped = c.accd(kS, 1.0, 100);
  EXPECT_TRUE(capped.hit_iteration_cap);
  EXPECT_EQ(capped.iterations, 100);
  EXPECT_GT(capped.toi, 0.0);
  EXPECT_LT(capped.toi, 1.0);
  EXPECT_GE(c.distance(capped.toi), kS * 1e-4 * (1.0 - 1e-9));

  const CcdResult full = c.accd();
  EXPECT_FALSE(full.hit_iteration_cap);
  EXPECT_EQ(full.toi, 1.0);
  EXPECT_GT(full.iterations, 100);
  std::printf("[ accd ] sliding at 1e-4 over length 1: %d iterations uncapped; capped at 100: toi %.4g\n",
              full.iterations, capped.toi);

  // No iteration allowed: the one step the bound (★) guarantees, (1 − s)·d₀/l_p.
  const CcdResult none = c.accd(kS, 1.0, 0);
  EXPECT_TRUE(none.hit_iteration_cap);
  EXPECT_EQ(none.iterations, 0);
  EXPECT_NEAR(none.toi, (1.0 - kS) * 1e-4 / 1.0, 1e-15);
}

TEST(PointTriangleAccd, TouchingOrNonFiniteGivesZero) {
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0), z = Vec3::Zero();
  EXPECT_EQ(point_triangle_accd(Vec3(0.2, 0.2, 0), t0, t1, t2, Vec3(0, 0, 1), z, z, z).toi, 0.0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(point_triangle_accd(Vec3(0.2, 0.2, 1), t0, t1, t2, Vec3(0, 0, nan), z, z, z).toi, 0.0);
  EXPECT_EQ(point_triangle_accd(Vec3(0.2, 0.2, 1), t0, t1, t2, Vec3(0, 0, -2), z, z, z, kS, 0.0).toi, 0.0);
}

}  // namespace
}  // namespace affix
