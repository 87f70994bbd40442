#include "affix/ccd/additive_ccd.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

#include "affix/distance/edge_edge.hpp"
#include "affix/distance/point_edge.hpp"
#include "affix/distance/point_point.hpp"
#include "affix/distance/point_triangle.hpp"

namespace affix {

namespace {


/// Steps 3–4 of the header's algorithm. `distance_at(t)` is the unsigned distance at time t along the
/// (mean-free) trajectory, `l_p` the bound (★) on the rate at which it can shrink, `lower` a lower bound
/// of the unsigned distance at t = 0 (the gap between the primitives' boxes).
template <class DistanceAt>
CcdResult additive_ccd(const DistanceAt& distance_at, double l_p, double s, double tmax, int max_iterations,
                       double xi, double lower) {
  assert(s > 0.0 && s < 1.0);
  assert(tmax >= 0.0);
  assert(xi >= 0.0);
  CcdResult result{0.0, false, 0};
  // The header's early out: with L = lower − ξ ≤ d₀ and (1 − s)·L ≥ l_p·tmax, the first trial step
  // (1 − s)·d₀/l_p reaches tmax, and by (★) d(tmax) ≥ d₀ − l_p·tmax ≥ d₀ − (1 − s)·d₀ = s·d₀: the
  // trial is accepted and toi = tmax. So that answer needs no distance at all — the common case of a
  // far candidate in a line search, where the two exact distances cost most of the query.
  if (lower - xi > 0.0 && (1.0 - s) * (lower - xi) >= l_p * tmax && tmax > 0.0 && std::isfinite(l_p)) {
    result.toi = tmax;
    return result;
  }
  const double d0 = distance_at(0.0) - xi;
  if (!(d0 > 0.0) || !std::isfinite(d0) || !std::isfinite(l_p) || !(tmax > 0.0)) {
    return result;  // touching (or within ξ), non-finite input, or an empty interval
  }
  if (l_p == 0.0) {
    result.toi = tmax;  // only a common translation: no distance changes
    return result;
  }
  const double gap = s * d0;
  double t = 0.0, d = d0;  // the last accepted time and its distance, d ≥ gap
  while (true) {
    if (result.iterations >= max_iterations) {
      result.hit_iteration_cap = true;
      break;
    }
    const double step = (1.0 - s) * d / l_p;  // (★): d ≥ s·d > 0 on [t, t + step]
    const bool reaches_tmax = step >= tmax - t;
    const double t_trial = reaches_tmax ? tmax : t + step;
    if (!(t_trial > t)) {
      break;  // the step is below the resolution of t (d₀ at rounding level): stay conservative
    }
    ++result.iterations;
    const double d_trial = distance_at(t_trial) - xi;
    if (!(d_trial >= gap)) {
      break;
    }
    t = t_trial;
    d = d_trial;
    if (reaches_tmax) {
      result.toi = tmax;
      return result;
    }
  }
  // Step 4: by (★) the distance stays ≥ d − l_p τ ≥ gap for τ ≤ (d − gap)/l_p.
  result.toi = std::min(tmax, t + (d - gap) / l_p);
  return result;
}

/// The largest of |v| over the arguments.
template <class... V>
double max_norm(const V&... v) {
  return std::sqrt(std::max({v.squaredNorm()...}));
}

/// Non-finite positions or displacements: no step is safe (toi = 0). Checked before any distance is
/// measured, since the distance functions assume finite, classifiable geometry.
template <typename... V>
bool all_finite(const V&... v) {
  return (v.allFinite() && ...);
}

/// A lower bound of the distance between the convex hulls of the points a… and b…: the gap between
/// their axis-aligned boxes.
template <std::size_t NA, std::size_t NB>
double box_gap(const std::array<const Vec3*, NA>& a, const std::array<const Vec3*, NB>& b) {
  Vec3 a_lo = *a[0], a_hi = *a[0], b_lo = *b[0], b_hi = *b[0];
  for (std::size_t k = 1; k < NA; ++k) a_lo = a_lo.cwiseMin(*a[k]), a_hi = a_hi.cwiseMax(*a[k]);
  for (std::size_t k = 1; k < NB; ++k) b_lo = b_lo.cwiseMin(*b[k]), b_hi = b_hi.cwiseMax(*b[k]);
  return (b_lo - a_hi).cwiseMax(a_lo - b_hi).cwiseMax(0.0).norm();
}
constexpr CcdResult kNoSafeStep{0.0, false, 0};

// Relative slack of the lower bounds: d₀ ≥ L and the first step (1 − s)·d₀/l_p hold in exact
// arithmetic; their rounding is a few ulps.
constexpr double kBoundSlack = 1e-9;

/// The header's lower bound from the box gap `lower` and the rate bound l_p of the query.
double first_step_bound(double lower, double l_p, double s, double tmax, double xi) {
  const double L = lower - xi;
  if (!(L > 0.0) || !std::isfinite(l_p)) return 0.0;
  if (l_p == 0.0) return tmax;
  return std::min(tmax, (1.0 - s) * L * (1.0 - kBoundSlack) / l_p);
}

/// Mean-free displacements (step 1) and l_p (step 2) of a point–triangle query.
struct PointTriangleMotion {
  Vec3 up, u0, u1, u2;
  double l_p;
  PointTriangleMotion(const Vec3& dp, const Vec3& dt0, const Vec3& dt1, const Vec3& dt2) {
    const Vec3 m = 0.25 * (dp + dt0 + dt1 + dt2);
    up = dp - m, u0 = dt0 - m, u1 = dt1 - m, u2 = dt2 - m;
    l_p = up.norm() + max_norm(u0, u1, u2);
  }
};

/// ... and of an edge–edge query.
struct EdgeEdgeMotion {
  Vec3 ua0, ua1, ub0, ub1;
  double l_p;
  EdgeEdgeMotion(const Vec3& dea0, const Vec3& dea1, const Vec3& deb0, const Vec3& deb1) {
    const Vec3 m = 0.25 * (dea0 + dea1 + deb0 + deb1);
    ua0 = dea0 - m, ua1 = dea1 - m, ub0 = deb0 - m, ub1 = deb1 - m;
    l_p = max_norm(ua0, ua1) + max_norm(ub0, ub1);
  }
};

}  // namespace

CcdResult point_point_accd(const Vec3& p, const Vec3& q, const Vec3& dp, const Vec3& dq, double min_separation_ratio,
                           double tmax, int max_iterations, double minimum_distance) {
  if (!all_finite(p, q, dp, dq)) return kNoSafeStep;
  const Vec3 m = 0.5 * (dp + dq);
  const Vec3 up = dp - m, uq = dq - m;
  const double l_p = up.norm() + uq.norm();
  const auto distance_at = [&](double t) { return std::sqrt(point_point_distance(p + t * up, q + t * uq)); };
  return additive_ccd(distance_at, l_p, min_separation_ratio, tmax, max_iterations, minimum_distance, 0.0);
}

CcdResult point_edge_accd(const Vec3& p, const Vec3& e0, const Vec3& e1, const Vec3& dp, const Vec3& de0,
                          const Vec3& de1, double min_separation_ratio, double tmax, int max_iterations,
                          double minimum_distance) {
  if (!all_finite(p, e0, e1, dp, de0, de1)) return kNoSafeStep;
  const Vec3 m = (dp + de0 + de1) / 3.0;
  const Vec3 up = dp - m, u0 = de0 - m, u1 = de1 - m;
  const double l_p = up.norm() + max_norm(u0, u1);
  const auto distance_at = [&](double t) {
    return std::sqrt(point_edge_distance(p + t * up, e0 + t * u0, e1 + t * u1));
  };
  return additive_ccd(distance_at, l_p, min_separation_ratio, tmax, max_iterations, minimum_distance,
                      box_gap<1, 2>({&p}, {&e0, &e1}));
}

CcdResult point_triangle_accd(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, const Vec3& dp,
                              const Vec3& dt0, const Vec3& dt1, const Vec3& dt2, double min_separation_ratio,
                              double tmax, int max_iterations, double minimum_distance) {
  if (!all_finite(p, t0, t1, t2, dp, dt0, dt1, dt2)) return kNoSafeStep;
  const PointTriangleMotion motion(dp, dt0, dt1, dt2);
  const Vec3 &up = motion.up, &u0 = motion.u0, &u1 = motion.u1, &u2 = motion.u2;
  const double l_p = motion.l_p;
  const auto distance_at = [&](double t) {
    return std::sqrt(point_triangle_distance(p + t * up, t0 + t * u0, t1 + t * u1, t2 + t * u2));
  };
  return additive_ccd(distance_at, l_p, min_separation_ratio, tmax, max_iterations, minimum_distance,
                      box_gap<1, 3>({&p}, {&t0, &t1, &t2}));
}

CcdResult edge_edge_accd(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, const Vec3& dea0,
                         const Vec3& dea1, const Vec3& deb0, const Vec3& deb1, double min_separation_ratio, double tmax,
                         int max_iterations, double minimum_distance) {
  if (!all_finite(ea0, ea1, eb0, eb1, dea0, dea1, deb0, deb1)) return kNoSafeStep;
  const EdgeEdgeMotion motion(dea0, dea1, deb0, deb1);
  const Vec3 &ua0 = motion.ua0, &ua1 = motion.ua1, &ub0 = motion.ub0, &ub1 = motion.ub1;
  const double l_p = motion.l_p;
  const auto distance_at = [&](double t) {
    return std::sqrt(edge_edge_distance(ea0 + t * ua0, ea1 + t * ua1, eb0 + t * ub0, eb1 + t * ub1));
  };
  return additive_ccd(distance_at, l_p, min_separation_ratio, tmax, max_iterations, minimum_distance,
                      box_gap<2, 2>({&ea0, &ea1}, {&eb0, &eb1}));
}

double point_triangle_accd_lower_bound(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, const Vec3& dp,
                                       const Vec3& dt0, const Vec3& dt1, const Vec3& dt2, double distance_bound,
                                       double min_separation_ratio, double tmax, double minimum_distance) {
  if (!all_finite(p, t0, t1, t2, dp, dt0, dt1, dt2)) return 0.0;
  return first_step_bound(std::max(distance_bound, box_gap<1, 3>({&p}, {&t0, &t1, &t2})),
                          PointTriangleMotion(dp, dt0, dt1, dt2).l_p, min_separation_ratio, tmax, minimum_distance);
}

double edge_edge_accd_lower_bound(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                  const Vec3& dea0, const Vec3& dea1, const Vec3& deb0, const Vec3& deb1,
                                  double distance_bound, double min_separation_ratio, double tmax,
                                  double minimum_distance) {
  if (!all_finite(ea0, ea1, eb0, eb1, dea0, dea1, deb0, deb1)) return 0.0;
  return first_step_bound(std::max(distance_bound, box_gap<2, 2>({&ea0, &ea1}, {&eb0, &eb1})),
                          EdgeEdgeMotion(dea0, dea1, deb0, deb1).l_p, min_separation_ratio, tmax, minimum_distance);
}

}  // namespace affix
