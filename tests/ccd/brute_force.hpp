#pragma once
// Brute-force references for the CCD tests (DESIGN §6: CCD against brute-force time sampling).
//  - Distances: the squared distance between two primitives is a convex quadratic in their barycentric
//    parameters, so nested ternary searches over the parameter domain find its minimum to rounding,
//    with no closest-feature logic shared with src/affix/ccd.
//  - Trajectories: the unsigned distance d(t) sampled at N + 1 uniform times; every local minimum of the
//    samples is refined by golden-section search on its two neighbouring intervals (near a contact d(t)
//    is V-shaped, so a dip between samples still shows as a sampled local minimum), and the first time d
//    falls to a threshold is located by bisection.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "affix/math/types.hpp"

namespace affix::test {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// The minimum of a convex f on [lo, hi] by ternary search (the interval shrinks by 2/3 per iteration).
template <class F>
double ternary_min(const F& f, double lo, double hi, int iterations = 64) {
  for (int i = 0; i < iterations && hi > lo; ++i) {
    const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
    if (f(m1) <= f(m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return std::min({f(lo), f(hi), f(0.5 * (lo + hi))});
}

inline double brute_point_edge_distance_squared(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return ternary_min([&](double a) { return (e0 + a * (e1 - e0) - p).squaredNorm(); }, 0.0, 1.0);
}

/// min over b₁ ∈ [0, 1], b₂ ∈ [0, 1 − b₁] of |t₀ + b₁(t₁ − t₀) + b₂(t₂ − t₀) − p|².
inline double brute_point_triangle_distance_squared(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  const auto inner = [&](double b1) {
    return ternary_min([&](double b2) { return (t0 + b1 * (t1 - t0) + b2 * (t2 - t0) - p).squaredNorm(); }, 0.0,
                       1.0 - b1);
  };
  return ternary_min(inner, 0.0, 1.0);
}

/// min over s, t ∈ [0, 1] of |a₀ + s(a₁ − a₀) − b₀ − t(b₁ − b₀)|².
inline double brute_edge_edge_distance_squared(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const auto inner = [&](double s) {
    const Vec3 a = a0 + s * (a1 - a0);
    return ternary_min([&](double t) { return (a - b0 - t * (b1 - b0)).squaredNorm(); }, 0.0, 1.0);
  };
  return ternary_min(inner, 0.0, 1.0);
}

/// The unsigned distance d(t) on [0, tmax], densely sampled, with its sampled local minima refined.
class TrajectoryReference {
 public:
  TrajectoryReference(std::function<double(double)> distance, double tmax, int samples = 4096)
      : distance_(std::move(distance)), tmax_(tmax), t_(samples + 1), d_(samples + 1) {
    for (int i = 0; i <= samples; ++i) {
      t_[i] = tmax * i / samples;
      d_[i] = distance_(t_[i]);
    }
    for (int i = 0; i <= samples; ++i) {
      const bool left = i == 0 || d_[i] < d_[i - 1];  // strict: a plateau is refined once, at its start
      const bool right = i == samples || d_[i] <= d_[i + 1];
      if (left && right) {
        // A dip between samples shows as a sampled minimum with a neighbour clearly above it (near a
        // contact the slope times the spacing); a flat stretch with rounding noise needs no refinement.
        const double rise = std::max(i == 0 ? d_[i] : d_[i - 1], i == samples ? d_[i] : d_[i + 1]) - d_[i];
        minima_.push_back(rise > kFlat ? refine_minimum(i) : LocalMinimum{static_cast<std::size_t>(i), t_[i], d_[i]});
      }
    }
  }

  double operator()(double t) const { return distance_(t); }
  double initial() const { return d_[0]; }

  /// The minimum of d over [0, tmax].
  double minimum() const {
    double m = kInf;
    for (const auto& lm : minima_) m = std::min(m, lm.d);
    return m;
  }

  /// The first time in [0, tmax] with d(t) ≤ threshold, or +∞ when there is none.
  double first_time_at_or_below(double threshold) const {
    std::size_t next_min = 0;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (d_[i] <= threshold) {
        return i == 0 ? 0.0 : bisect(t_[i - 1], t_[i], threshold);
      }
      while (next_min < minima_.size() && minima_[next_min].index < i) ++next_min;
      if (next_min < minima_.size() && minima_[next_min].index == i && minima_[next_min].d <= threshold) {
        const double lo = i == 0 ? 0.0 : t_[i - 1];
        return lo == minima_[next_min].t ? lo : bisect(lo, minima_[next_min].t, threshold);
      }
    }
    return kInf;
  }

 private:
  static constexpr double kFlat = 1e-13;  // rounding noise of distances for coordinates of size ~1

  struct LocalMinimum {
    std::size_t index;  // the sample it was refined from
    double t, d;
  };

  /// Golden-section search on [t_{i−1}, t_{i+1}] (clipped to [0, tmax]).
  LocalMinimum refine_minimum(int i) const {
    const int n = static_cast<int>(t_.size()) - 1;
    double lo = t_[std::max(i - 1, 0)], hi = t_[std::min(i + 1, n)];
    const double r = (std::sqrt(5.0) - 1.0) / 2.0;
    double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = distance_(x1), f2 = distance_(x2);
    for (int k = 0; k < 120 && hi - lo > 0.0; ++k) {
      if (f1 <= f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - r * (hi - lo);
        f1 = distance_(x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + r * (hi - lo);
        f2 = distance_(x2);
      }
    }
    LocalMinimum best{static_cast<std::size_t>(i), t_[i], d_[i]};
    for (const auto& [t, d] : {std::pair{x1, f1}, std::pair{x2, f2}, std::pair{lo, distance_(lo)}}) {
      if (d < best.d) best = {static_cast<std::size_t>(i), t, d};
    }
    return best;
  }

  /// d(lo) > threshold ≥ d(hi): the smallest time found with d ≤ threshold.
  double bisect(double lo, double hi, double threshold) const {
    for (int k = 0; k < 200 && hi - lo > 0.0; ++k) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (distance_(mid) <= threshold ? hi : lo) = mid;
    }
    return hi;
  }

  std::function<double(double)> distance_;
  double tmax_;
  std::vector<double> t_, d_;
  std::vector<LocalMinimum> minima_;
};

/// Seeded random geometry for the tests.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine_); }
  /// log-uniform in [lo, hi].
  double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  double sign() { return uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0; }
  bool chance(double p) { return uniform(0.0, 1.0) < p; }
  Vec3 in_cube(double half = 1.0) { return {uniform(-half, half), uniform(-half, half), uniform(-half, half)}; }
  Vec3 unit() {
    while (true) {
      const Vec3 v = in_cube();
      const double n = v.norm();
      if (n > 0.1 && n <= 1.0) return v / n;
    }
  }
  /// A unit vector orthogonal to the unit vector u.
  Vec3 unit_orthogonal(const Vec3& u) {
    while (true) {
      const Vec3 v = unit();
      const Vec3 w = v - v.dot(u) * u;
      if (w.norm() > 0.1) return w.normalized();
    }
  }
  /// A rotation about a random axis by an angle in [0, max_angle].
  Mat3 rotation(double max_angle) { return Eigen::AngleAxisd(uniform(0.0, max_angle), unit()).toRotationMatrix(); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace affix::test
