// Edge–edge additive CCD against brute-force time sampling (accd_harness.hpp states the checks), on
// random, grazing, parallel, already-close, translating, rotating, resting and falling configurations.
// Run the binary to see each category's statistics.
#include <gtest/gtest.h>

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

struct EeCase {
  Vec3 a0, a1, b0, b1;      // positions at t = 0
  Vec3 da0, da1, db0, db1;  // displacements over [0, 1]

  double distance(double t) const {
    return std::sqrt(edge_edge_distance(a0 + t * da0, a1 + t * da1, b0 + t * db0, b1 + t * db1));
  }
  CcdResult accd(double s = kS, double tmax = 1.0, int cap = 1'000'000, double xi = 0.0) const {
    return edge_edge_accd(a0, a1, b0, b1, da0, da1, db0, db1, s, tmax, cap, xi);
  }
  void add_common(const Vec3& w) {
    da0 += w;
    da1 += w;
    db0 += w;
    db1 += w;
  }
  /// Edge b moves by v relative to edge a.
  void move_b(const Vec3& v) {
    db0 += v;
    db1 += v;
  }
  std::string str() const {
    std::ostringstream o;
    o << std::setprecision(17);
    for (const Vec3* v : {&a0, &a1, &b0, &b1, &da0, &da1, &db0, &db1}) o << "(" << v->transpose() << ") ";
    return o.str();
  }
};

EeCase resting(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const Vec3 z = Vec3::Zero();
  return {a0, a1, b0, b1, z, z, z, z};
}

/// A random edge at least 0.4 long: its endpoints and unit direction.
struct Edge {
  Vec3 e0, e1, u;
  Vec3 at(double lambda) const { return e0 + lambda * (e1 - e0); }
};

Edge long_edge(Random& rng) {
  while (true) {
    const Vec3 e0 = rng.in_cube(), e1 = rng.in_cube();
    if ((e1 - e0).norm() > 0.4) return {e0, e1, (e1 - e0).normalized()};
  }
}

template <class Make>
AccdStats run_category(const std::string& name, std::uint64_t seed, Make make, int cases = kCases) {
  AccdStats stats("edge-edge " + name);
  Random rng(seed);
  for (int k = 0; k < cases; ++k) {
    const EeCase c = make(rng);
    test::check_accd(
        stats, [&](double t) { return c.distance(t); }, c.accd(), kS, 1.0, c.str());
  }
  stats.print();
  EXPECT_EQ(stats.failures, 0) << stats.name;
  return stats;
}

TEST(EdgeEdgeAccd, Random) {
  run_category("random", 31, [](Random& rng) {
    return EeCase{rng.in_cube(),  rng.in_cube(),  rng.in_cube(),  rng.in_cube(),
                  rng.in_cube(2), rng.in_cube(2), rng.in_cube(2), rng.in_cube(2)};
  });
}

// Edge b's endpoint passes edge a at the exact smallest distance δ ∈ [1e-9, 0.1] at time t_c: with o a
// unit normal of a and b pointing away from a (a positive component along o), and the relative
// velocity orthogonal to o, every point of b stays at least δ from the line of a.
TEST(EdgeEdgeAccd, GrazingMiss) {
  const auto stats = run_category("grazing miss", 32, [](Random& rng) {
    const Edge a = long_edge(rng);
    const Vec3 o = rng.unit_orthogonal(a.u), w = a.u.cross(o);
    const double delta = rng.log_uniform(1e-9, 1e-1), tc = rng.uniform(0.2, 0.8);
    const Vec3 b0c = a.at(rng.uniform(0.05, 0.95)) + delta * o;
    const Vec3 b = rng.uniform(0.3, 1.5) *
                   (rng.uniform(0.2, 1.0) * o + rng.uniform(-1.0, 1.0) * w + rng.uniform(-1.0, 1.0) * a.u).normalized();
    const Vec3 v = rng.sign() * rng.uniform(0.5, 2.0) * w + rng.uniform(-0.5, 0.5) * a.u;
    EeCase c = resting(a.e0, a.e1, b0c - tc * v, b0c + b - tc * v);
    c.move_b(v);
    c.add_common(rng.in_cube());
    EXPECT_NEAR(c.distance(tc), delta, 1e-14 + 1e-9 * delta);
    EXPECT_NEAR(test::TrajectoryReference([&](double t) { return c.distance(t); }, 1.0, 2048).minimum(), delta,
                1e-14 + 1e-9 * delta);
    return c;
  });
  EXPECT_EQ(stats.impacts, 0);
}

// Edge b crosses the line of a δ ∈ [1e-9, 0.1] from its endpoint, inside edge a, at time t_c: a true
// impact there, and the only one (the relative velocity has a component along o × u).
TEST(EdgeEdgeAccd, GrazingHit) {
  const auto stats = run_category("grazing hit", 33, [](Random& rng) {
    while (true) {
      const Edge a = long_edge(rng);
      const Vec3 o = rng.unit_orthogonal(a.u), w = a.u.cross(o);
      const double delta = rng.log_uniform(1e-9, 1e-1), tc = rng.uniform(0.2, 0.8);
      const Vec3 b0c = a.at(rng.uniform(0.05, 0.95)) - delta * o;
      const Vec3 b = rng.uniform(0.6, 1.5) * (rng.uniform(0.2, 1.0) * o + rng.uniform(-1.0, 1.0) * a.u).normalized();
      if (edge_edge_distance(a.e0, a.e1, b0c, b0c + b) > 1e-28) continue;
      const Vec3 v = rng.sign() * rng.uniform(0.5, 2.0) * w + rng.uniform(-0.5, 0.5) * a.u + rng.uniform(-0.5, 0.5) * o;
      EeCase c = resting(a.e0, a.e1, b0c - tc * v, b0c + b - tc * v);
      c.move_b(v);
      c.add_common(rng.in_cube());
      return c;
    }
  });
  EXPECT_EQ(stats.impacts, kCases);
}

// Parallel edges h ∈ [1e-3, 0.3] apart: sliding along each other (and sideways, which only moves them
// apart), or approaching head-on.
TEST(EdgeEdgeAccd, Parallel) {
  run_category("parallel", 34, [](Random& rng) {
    const Edge a = long_edge(rng);
    const Vec3 o = rng.unit_orthogonal(a.u), w = a.u.cross(o);
    const double h = rng.log_uniform(1e-3, 0.3);
    const Vec3 b0 = a.at(rng.uniform(-0.5, 1.0)) + h * o;
    EeCase c = resting(a.e0, a.e1, b0, b0 + rng.sign() * rng.uniform(0.3, 1.5) * a.u);
    if (rng.chance(0.5)) {
      c.move_b(rng.uniform(-2.0, 2.0) * a.u + rng.uniform(-0.5, 0.5) * w);
    } else {
      c.move_b(-rng.uniform(0.5, 3.0) * h * o + rng.uniform(-0.5, 0.5) * a.u);
    }
    c.add_common(rng.in_cube());
    return c;
  });
}

// Crossing edges d₀ = 1e-6 apart (closest points inside both), every vertex moving on its own.
TEST(EdgeEdgeAccd, AlreadyClose) {
  run_category("already close", 35, [](Random& rng) {
    const Edge a = long_edge(rng);
    const Vec3 v = rng.unit_orthogonal(a.u);
    const Vec3 n = a.u.cross(v);
    const Vec3 centre = a.at(rng.uniform(0.1, 0.9)) + 1e-6 * n;
    const double f = rng.uniform(0.1, 0.9), length = rng.uniform(0.4, 1.5);
    const Vec3 dir = (v + rng.uniform(-1.0, 1.0) * a.u).normalized();
    EeCase c = resting(a.e0, a.e1, centre - f * length * dir, centre + (1.0 - f) * length * dir);
    c.da0 = rng.in_cube();
    c.da1 = rng.in_cube();
    c.db0 = rng.in_cube();
    c.db1 = rng.in_cube();
    return c;
  });
}

TEST(EdgeEdgeAccd, PureTranslation) {
  const auto stats = run_category("pure translation", 36, [](Random& rng) {
    EeCase c = resting(rng.in_cube(), rng.in_cube(), rng.in_cube(), rng.in_cube());
    c.add_common(rng.in_cube(3));
    return c;
  });
  EXPECT_EQ(stats.full_steps, stats.cases);
}

// Both edges turn rigidly (up to 1.5 rad about nearby centres) while b, above a, moves towards it.
TEST(EdgeEdgeAccd, RotationLike) {
  run_category("rotation-like", 37, [](Random& rng) {
    const Edge a = long_edge(rng);
    const Vec3 v = rng.unit_orthogonal(a.u);
    const Vec3 n = a.u.cross(v);
    const double h = rng.uniform(0.05, 1.0);
    const Vec3 centre = a.at(rng.uniform(0.0, 1.0)) + h * n;
    EeCase c = resting(a.e0, a.e1, centre - rng.uniform(0.2, 0.8) * v, centre + rng.uniform(0.2, 0.8) * v);
    const auto turn = [&](const Vec3& x0, const Vec3& x1, Vec3& d0, Vec3& d1) {
      const Mat3 R = rng.rotation(1.5);
      const Vec3 z = 0.5 * (x0 + x1) + rng.in_cube(0.3);
      d0 = R * (x0 - z) + z - x0;
      d1 = R * (x1 - z) + z - x1;
    };
    turn(c.a0, c.a1, c.da0, c.da1);
    turn(c.b0, c.b1, c.db0, c.db1);
    c.move_b(-rng.uniform(0.0, 3.0) * h * n);
    c.add_common(rng.in_cube());
    return c;
  });
}

TEST(EdgeEdgeAccd, ZeroDisplacement) {
  const auto stats = run_category("zero displacement", 38, [](Random& rng) {
    return resting(rng.in_cube(), rng.in_cube(), rng.in_cube(), rng.in_cube());
  });
  EXPECT_EQ(stats.full_steps, stats.cases);
  EXPECT_EQ(stats.total_iterations, 0);
}

// Boxes apart by a gap G and moving slowly against it: where (1 − s)·G ≥ l_p (the early out of
// additive_ccd.hpp) the answer is the full step with no distance evaluated; just beyond that bound the
// iteration runs. Both are checked against brute-force sampling by the harness.
TEST(EdgeEdgeAccd, FarPairsTakeTheFullStepWithoutDistances) {
  int early = 0;
  const auto stats = run_category("far, slow", 40, [&](Random& rng) {
    EeCase c = resting(rng.in_cube(), rng.in_cube(), rng.in_cube(), rng.in_cube());
    c.b0 += Vec3(3, 0, 0), c.b1 += Vec3(3, 0, 0);  // boxes at least 1 apart along x
    const double gap = std::min(c.b0.x(), c.b1.x()) - std::max(c.a0.x(), c.a1.x());
    // l_p below (1 − s)·gap on half the cases, up to 1.3× it on the others.
    const double speed = (rng.chance(0.5) ? rng.uniform(0.0, 0.95) : rng.uniform(1.05, 1.3)) * (1.0 - kS) * gap;
    c.da0 = 0.5 * speed * rng.unit(), c.db1 = 0.5 * speed * rng.unit();
    test::count_early_out(c.accd(), early);
    return c;
  });
  test::expect_both_sides_of_the_early_out(stats, early);
}

// Edge b, crossing over edge a at a height h ∈ [1e-3, 1] along their common normal, falls straight onto
// it, reaching it at t = 1/k, k ∈ [1.2, 3]: toi should be t_s = (1 − s)/k.
TEST(EdgeEdgeAccd, StraightFallStopsAtTheGap) {
  const auto stats = run_category("straight fall", 39, [](Random& rng) {
    const Edge a = long_edge(rng);
    const Vec3 v = (rng.unit_orthogonal(a.u) + rng.uniform(-1.0, 1.0) * a.u).normalized();  // ≥ 45° to a
    const Vec3 n = a.u.cross(v).normalized();
    const double h = rng.log_uniform(1e-3, 1.0), k = rng.uniform(1.2, 3.0), side = rng.sign();
    const Vec3 centre = a.at(rng.uniform(0.15, 0.85)) + side * h * n;
    const double f = rng.uniform(0.15, 0.85), length = rng.uniform(0.4, 1.5);
    EeCase c = resting(a.e0, a.e1, centre - f * length * v, centre + (1.0 - f) * length * v);
    c.move_b(-side * k * h * n);
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

TEST(EdgeEdgeAccd, ShorterInterval) {
  AccdStats stats("edge-edge tmax = 0.4");
  Random rng(40);
  for (int k = 0; k < kCases; ++k) {
    const EeCase c{rng.in_cube(),  rng.in_cube(),  rng.in_cube(),  rng.in_cube(),
                   rng.in_cube(2), rng.in_cube(2), rng.in_cube(2), rng.in_cube(2)};
    test::check_accd(
        stats, [&](double t) { return c.distance(t); }, c.accd(kS, 0.4), kS, 0.4, c.str());
  }
  stats.print();
  EXPECT_EQ(stats.failures, 0);
}

TEST(EdgeEdgeAccd, MinimumDistanceAndOtherRatios) {
  Random rng(41);
  for (const double s : {0.01, 0.1, 0.5, 0.9}) {
    for (const double xi : {0.0, 1e-3, 0.05}) {
      AccdStats stats("edge-edge s, ξ");
      for (int k = 0; k < 30; ++k) {
        const Edge a = long_edge(rng);
        const Vec3 v = rng.unit_orthogonal(a.u);
        const Vec3 centre = a.at(rng.uniform(0.0, 1.0)) + rng.uniform(0.06, 0.5) * a.u.cross(v);
        EeCase c = resting(a.e0, a.e1, centre - 0.4 * v, centre + 0.5 * v);
        c.da0 = rng.in_cube(0.5);
        c.da1 = rng.in_cube(0.5);
        c.db0 = rng.in_cube();
        c.db1 = rng.in_cube();
        test::check_accd(
            stats, [&](double t) { return c.distance(t); }, c.accd(s, 1.0, 1'000'000, xi), s, 1.0, c.str(), xi);
      }
      EXPECT_EQ(stats.failures, 0) << "s = " << s << ", ξ = " << xi;
    }
  }
}

// Two parallel edges sliding along each other 1e-4 apart: the cap is reported and toi stays safe.
TEST(EdgeEdgeAccd, IterationCapIsReportedAndConservative) {
  const Vec3 z = Vec3::Zero();
  const EeCase c{Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 0, 1e-4), Vec3(0.5, 0, 1e-4), z, z,
                 Vec3(1, 0, 0), Vec3(1, 0, 0)};
  const CcdResult capped = c.accd(kS, 1.0, 100);
  EXPECT_TRUE(capped.hit_iteration_cap);
  EXPECT_EQ(capped.iterations, 100);
  EXPECT_GT(capped.toi, 0.0);
  EXPECT_LT(capped.toi, 1.0);
  EXPECT_GE(c.distance(capped.toi), kS * 1e-4 * (1.0 - 1e-9));
  const CcdResult full = c.accd();
  EXPECT_FALSE(full.hit_iteration_cap);
  EXPECT_EQ(full.toi, 1.0);
}

TEST(EdgeEdgeAccd, TouchingOrNonFiniteGivesZero) {
  const Vec3 z = Vec3::Zero();
  EXPECT_EQ(
      edge_edge_accd(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 0), Vec3(0, 1, 0), z, z, Vec3(0, 0, 1), Vec3(0, 0, 1))
          .toi,
      0.0);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(edge_edge_accd(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 1), Vec3(0, 1, 1), z, z, Vec3(0, 0, -inf),
                           Vec3(0, 0, 1))
                .toi,
            0.0);
}

}  // namespace
}  // namespace affix
