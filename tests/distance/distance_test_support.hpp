#pragma once
// Helpers shared by the distance tests: stacking vertices into the VecX that the finite-difference
// helper (support/finite_differences.hpp) works on, a derivative check built on that helper, random
// configurations, and brute-force references for the closest-feature distances.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <utility>

#include "affix/math/types.hpp"
#include "support/finite_differences.hpp"

namespace affix::test {

using Rng = std::mt19937_64;

inline Vec3 random_point(Rng& rng, double half_width = 1.0) {
  std::uniform_real_distribution<double> u(-half_width, half_width);
  return Vec3(u(rng), u(rng), u(rng));
}

inline double uniform(Rng& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

inline Vec3 random_unit(Rng& rng) {
  Vec3 v;
  do v = random_point(rng); while (v.norm() < 0.1 || v.norm() > 1.0);
  return v.normalized();
}

/// A unit vector orthogonal to v.
inline Vec3 orthogonal_unit(const Vec3& v, Rng& rng) {
  Vec3 u;
  do u = random_unit(rng).cross(v); while (u.norm() < 0.1 * v.norm());
  return u.normalized();
}

template <typename... V>
VecX stack(const V&... vertices) {
  VecX x(3 * sizeof...(V));
  int i = 0;
  ((x.segment<3>(3 * i++) = vertices), ...);
  return x;
}

/// f(x₀, x₁, ..., x_{NV−1}) with the vertices read from the stacked x.
template <int NV, typename F>
auto call_stacked(const F& f, const VecX& x) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return f(Vec3(x.segment<3>(3 * static_cast<Eigen::Index>(I)))...);
  }(std::make_index_sequence<NV>{});
}

/// Largest relative errors seen by check_derivatives in one test, printed when the test ends.
struct WorstFd {
  std::string name;
  double gradient = 0.0, hessian = 0.0;
  explicit WorstFd(std::string n) : name(std::move(n)) {}
  WorstFd(const WorstFd&) = delete;
  WorstFd& operator=(const WorstFd&) = delete;
  ~WorstFd() { std::printf("[ worst FD ] %-40s gradient %.2e  hessian %.2e\n", name.c_str(), gradient, hessian); }
};

/// Checks the analytic gradient against central differences of the value and the analytic Hessian
/// against central differences of the analytic gradient, at stacked vertices x with step about h, after
/// checking that the gradient is not zero. Errors are relative to the largest finite-difference entry
/// (‖a − b‖∞ ≤ tol · ‖b‖∞), so the check means the same for a tiny distance as for a large one.
/// h is rounded down to a power of two and x to a multiple of h/4096, so that x ± h is exact: steps far
/// below the coordinates' size (needed where a quantity turns on a small length, e.g. nearly parallel
/// edges) then carry no representation error. The checked point moves by less than h/8192.
template <int NV, typename Value, typename Gradient, typename Hessian>
void check_derivatives(const Value& value, const Gradient& gradient, const Hessian& hessian, const VecX& x_in,
                       double h_in, double gradient_tol, double hessian_tol, WorstFd* worst = nullptr) {
  const double h = std::exp2(std::floor(std::log2(h_in)));
  const double quantum = h / 4096.0;
  const VecX x = (x_in / quantum).array().round().matrix() * quantum;
  const std::function<double(const VecX&)> f = [&](const VecX& y) { return call_stacked<NV>(value, y); };
  const std::function<VecX(const VecX&)> g = [&](const VecX& y) { return VecX(call_stacked<NV>(gradient, y)); };
  const VecX grad = g(x);
  const MatX hess = call_stacked<NV>(hessian, x);
  ASSERT_GT(grad.norm(), 0.0) << "zero gradient at x = " << x.transpose();
  const VecX fd_grad = fd_gradient(f, x, h);
  const MatX fd_hess = fd_jacobian(g, x, h);
  const double grad_scale = fd_grad.cwiseAbs().maxCoeff();
  const double hess_scale = fd_hess.cwiseAbs().maxCoeff();
  ASSERT_GT(grad_scale, 0.0);
  ASSERT_GT(hess_scale, 0.0);
  EXPECT_TRUE(near_relative(grad / grad_scale, fd_grad / grad_scale, gradient_tol)) << "x = " << x.transpose();
  EXPECT_TRUE(near_relative(hess / hess_scale, fd_hess / hess_scale, hessian_tol)) << "x = " << x.transpose();
  EXPECT_LE((hess - hess.transpose()).cwiseAbs().maxCoeff(), 1e-12 * hess_scale) << "Hessian not symmetric";
  if (worst != nullptr) {
    worst->gradient = std::max(worst->gradient, (grad - fd_grad).cwiseAbs().maxCoeff() / grad_scale);
    worst->hessian = std::max(worst->hessian, (hess - fd_hess).cwiseAbs().maxCoeff() / hess_scale);
  }
}

/// Minimum of a convex function on [lo, hi] by golden-section search, to rounding.
inline double golden_section_min(const std::function<double(double)>& f, double lo, double hi) {
  const double r = 0.5 * (std::sqrt(5.0) - 1.0);
  double a = lo, b = hi;
  double x1 = b - r * (b - a), x2 = a + r * (b - a);
  double f1 = f(x1), f2 = f(x2);
  for (int it = 0; it < 200 && b - a > 1e-18 * (hi - lo); ++it) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - r * (b - a);
      f1 = f(x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + r * (b - a);
      f2 = f(x2);
    }
  }
  return std::min({f1, f2, f(lo), f(hi)});
}

/// min over v ∈ [0, v_max] of |r − v b|² (a clamped 1D least-squares problem).
inline double clamped_line_min(const Vec3& r, const Vec3& b, double v_max) {
  const double bb = b.squaredNorm();
  const double v = bb > 0.0 ? std::clamp(r.dot(b) / bb, 0.0, v_max) : 0.0;
  return (r - v * b).squaredNorm();
}

/// Reference squared point-segment distance: the clamped projection.
inline double reference_point_edge(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return clamped_line_min(p - e0, e1 - e0, 1.0);
}

/// Reference squared point-triangle distance: g(u) = min over v ∈ [0, 1 − u] of |p − t0 − u a − v b|²
/// is convex in u (partial minimisation of a convex quadratic over a convex set), so a golden-section
/// search over u with the inner minimum in closed form finds the minimum over the triangle.
inline double reference_point_triangle(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  const Vec3 a = t1 - t0, b = t2 - t0, r = p - t0;
  return golden_section_min([&](double u) { return clamped_line_min(r - u * a, b, 1.0 - u); }, 0.0, 1.0);
}

/// Reference squared segment-segment distance, the same way: golden section over s, closed form in t.
inline double reference_edge_edge(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  const Vec3 a = ea1 - ea0, b = eb1 - eb0;
  return golden_section_min([&](double s) { return clamped_line_min(ea0 + s * a - eb0, b, 1.0); }, 0.0, 1.0);
}

}  // namespace affix::test
