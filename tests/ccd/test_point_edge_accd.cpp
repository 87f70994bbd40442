// Point–point and point–edge additive CCD against brute-force time sampling (accd_harness.hpp states
// the checks): random, grazing, head-on, translating and resting configurations.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
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
constexpr int kCases = 300;

struct PeCase {
  Vec3 p, e0, e1, dp, de0, de1;

  double distance(double t) const {
    return std::sqrt(point_edge_distance(p + t * dp, e0 + t * de0, e1 + t * de1));
  }
  CcdResult accd(double tmax = 1.0) const { return point_edge_accd(p, e0, e1, dp, de0, de1, kS, tmax); }
  std::string str() const {
    std::ostringstream o;
    o << std::setprecision(17);
    for (const Vec3* v : {&p, &e0, &e1, &dp, &de0, &de1}) o << "(" << v->transpose() << ") ";
    return o.str();
  }
};

struct PpCase {
  Vec3 p, q, dp, dq;

  double distance(double t) const { return (p + t * dp - q - t * dq).norm(); }
  CcdResult accd(double tmax = 1.0) const { return point_point_accd(p, q, dp, dq, kS, tmax); }
  std::string str() const {
    std::ostringstream o;
    o << std::setprecision(17);
    for (const Vec3* v : {&p, &q, &dp, &dq}) o << "(" << v->transpose() << ") ";
    return o.str();
  }
};

template <class Case, class Make>
AccdStats run_category(const std::string& name, std::uint64_t seed, Make make) {
  AccdStats stats(name);
  Random rng(seed);
  for (int k = 0; k < kCases; ++k) {
    const Case c = make(rng);
    test::check_accd(
        stats, [&](double t) { return c.distance(t); }, c.accd(), kS, 1.0, c.str());
  }
  stats.print();
  EXPECT_EQ(stats.failures, 0) << stats.name;
  return stats;
}

TEST(PointPointAccd, Random) {
  run_category<PpCase>("point-point random", 51, [](Random& rng) {
    return PpCase{rng.in_cube(), rng.in_cube(), rng.in_cube(2), rng.in_cube(2)};
  });
}

// The relative motion of two points is exact in l_p = |Δp − Δq|: a head-on approach stops at t_s.
TEST(PointPointAccd, HeadOnStopsAtTheGap) {
  const auto stats = run_category<PpCase>("point-point head-on", 52, [](Random& rng) {
    const Vec3 p = rng.in_cube(), dir = rng.unit();
    const double d0 = rng.log_uniform(1e-6, 1.0), k = rng.uniform(1.2, 3.0);
    const Vec3 w = rng.in_cube();
    const PpCase c{p, p + d0 * dir, w + k * d0 * dir, w};
    EXPECT_NEAR(c.accd().toi, (1.0 - kS) / k, 1e-9);
    return c;
  });
  EXPECT_GE(stats.min_ratio(), 0.99);
}

TEST(PointPointAccd, ZeroAndCommonMotion) {
  const Vec3 z = Vec3::Zero(), w(0.3, -2.0, 1.0);
  const CcdResult still = point_point_accd(Vec3(0, 0, 0), Vec3(1, 0, 0), z, z);
  EXPECT_EQ(still.toi, 1.0);
  EXPECT_EQ(still.iterations, 0);
  EXPECT_EQ(point_point_accd(Vec3(0, 0, 0), Vec3(1, 0, 0), w, w).toi, 1.0);
  EXPECT_EQ(point_point_accd(Vec3(0, 0, 0), Vec3(0, 0, 0), w, z).toi, 0.0);
}

TEST(PointEdgeAccd, Random) {
  run_category<PeCase>("point-edge random", 53, [](Random& rng) {
    return PeCase{rng.in_cube(), rng.in_cube(), rng.in_cube(), rng.in_cube(2), rng.in_cube(2), rng.in_cube(2)};
  });
}

// The point passes the edge's line at distance δ ∈ [1e-9, 0.1] at t_c, beside the edge's interior and
// moving orthogonally to the offset (a miss at exactly δ), or through the edge itself (a hit).
TEST(PointEdgeAccd, Grazing) {
  const auto stats = run_category<PeCase>("point-edge grazing", 54, [](Random& rng) {
    Vec3 e0 = rng.in_cube(), e1 = rng.in_cube();
    while ((e1 - e0).norm() < 0.4) e1 = rng.in_cube();
    const Vec3 u = (e1 - e0).normalized(), o = rng.unit_orthogonal(u), w = u.cross(o);
    const double delta = rng.chance(0.5) ? rng.log_uniform(1e-9, 1e-1) : 0.0, tc = rng.uniform(0.2, 0.8);
    const Vec3 pc = e0 + rng.uniform(0.05, 0.95) * (e1 - e0) + delta * o;
    const Vec3 v = rng.sign() * rng.uniform(0.5, 2.0) * w + rng.uniform(-0.5, 0.5) * u;
    const Vec3 common = rng.in_cube();
    return PeCase{pc - tc * v, e0, e1, v + common, common, common};
  });
  EXPECT_GT(stats.impacts, kCases / 3);
}

// A point falling straight onto the edge's interior (edge at rest, or everything sharing a translation).
TEST(PointEdgeAccd, StraightFallStopsAtTheGap) {
  const auto stats = run_category<PeCase>("point-edge straight fall", 55, [](Random& rng) {
    Vec3 e0 = rng.in_cube(), e1 = rng.in_cube();
    while ((e1 - e0).norm() < 0.4) e1 = rng.in_cube();
    const Vec3 o = rng.unit_orthogonal((e1 - e0).normalized());
    const double h = rng.log_uniform(1e-3, 1.0), k = rng.uniform(1.2, 3.0);
    const Vec3 common = rng.chance(0.5) ? rng.in_cube() : Vec3::Zero();
    const PeCase c{e0 + rng.uniform(0.1, 0.9) * (e1 - e0) + h * o, e0, e1, -k * h * o + common, common, common};
    EXPECT_NEAR(c.accd().toi, (1.0 - kS) / k, 1e-9);
    return c;
  });
  EXPECT_EQ(stats.impacts, kCases);
  EXPECT_GE(stats.min_ratio(), 0.99);
}

TEST(PointEdgeAccd, ZeroAndCommonMotion) {
  const Vec3 z = Vec3::Zero(), w(0.3, -2.0, 1.0);
  const CcdResult still = point_edge_accd(Vec3(0, 1, 0), Vec3(-1, 0, 0), Vec3(1, 0, 0), z, z, z);
  EXPECT_EQ(still.toi, 1.0);
  EXPECT_EQ(still.iterations, 0);
  EXPECT_EQ(point_edge_accd(Vec3(0, 1, 0), Vec3(-1, 0, 0), Vec3(1, 0, 0), w, w, w).toi, 1.0);
  EXPECT_EQ(point_edge_accd(Vec3(0, 0, 0), Vec3(-1, 0, 0), Vec3(1, 0, 0), w, z, z).toi, 0.0);
}

}  // namespace
}  // namespace affix
