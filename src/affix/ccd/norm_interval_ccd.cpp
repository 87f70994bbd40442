#include "affix/ccd/norm_interval_ccd.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace affix {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// f(t) = ‖d₀ + t·dd‖² = A t² + 2B t + C with A = ‖dd‖², B = d₀·dd, C = ‖d₀‖²: a convex parabola.
// The roots of f(t) = r² are t± = (−B ± √Δ)/A with Δ = B² − A(C − r²) = A r² − ‖d₀ × dd‖² (Lagrange's
// identity B² − AC = −‖d₀ × dd‖², which avoids the cancellation of B² − AC when d₀ ∥ dd). Each root is
// evaluated in the form without cancellation, using t₊·t₋ = (C − r²)/A.

/// The first t > 0 with ‖d(t)‖ = r_max, leaving the ball (C < r_max²); +inf if never. f(0) < r² and
/// f is convex, so {f ≤ r²} is an interval around 0 and its right end t₊ is crossed transversally.
double leaves_ball(double A, double B, double C, double cross2, double r_max) {
  const double r2 = r_max * r_max;
  if (A == 0.0 || !std::isfinite(r2)) return kInf;
  const double root = std::sqrt(std::max(0.0, A * r2 - cross2));  // Δ > 0 since C < r²
  return B >= 0.0 ? (r2 - C) / (B + root) : (root - B) / A;
}

/// The first t > 0 with ‖d(t)‖ < r_min, entering the ball (C > r_min²); +inf if never. Both roots share
/// the sign of −B, so only an approach (B < 0) with Δ > 0 enters; Δ ≤ 0 is a miss or a tangent pass,
/// where ‖d(t)‖ ≥ r_min holds throughout (a touch is allowed).
double enters_ball(double A, double B, double C, double cross2, double r_min) {
  if (A == 0.0 || r_min == 0.0 || B >= 0.0) return kInf;
  const double r2 = r_min * r_min;
  const double disc = A * r2 - cross2;
  if (!(disc > 0.0)) return kInf;
  return (C - r2) / (std::sqrt(disc) - B);  // = t₋ = (−B − √Δ)/A
}

}  // namespace

double norm_interval_max_step(const Vec3& d0, const Vec3& dd, double r_min, double r_max) {
  const double norm0 = d0.norm();
  // r_min = 0 bounds nothing, so ‖d₀‖ = 0 is inside then (a symmetric rotation range starts there).
  const bool inside = (r_min < norm0 || r_min == 0.0) && norm0 < r_max;
  assert(r_min >= 0.0 && inside);
  if (!inside || !dd.allFinite()) {
    return 0.0;  // outside the interval already, or non-finite input: no safe step
  }
  const double A = dd.squaredNorm(), B = d0.dot(dd), C = norm0 * norm0;
  const double cross2 = d0.cross(dd).squaredNorm();
  const double alpha = std::min(leaves_ball(A, B, C, cross2, r_max), enters_ball(A, B, C, cross2, r_min));
  return alpha >= 1.0 ? 1.0 : std::max(alpha, 0.0);
}

}  // namespace affix
