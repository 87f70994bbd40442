#include "affix/solvers/mabd/psd_clamp.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace affix {
namespace {

constexpr int kNewtonIterations = 32;  // from the bound below, a simple root takes 5–10
constexpr double kStepConverged = 1e-15;  // Newton's step on the scaled matrix (entries within ±1)
/// A root whose p' is below this (scaled) is clustered with another: its polynomial value's round-off
/// (about 10⁻¹⁵) would move it by more than 10⁻¹¹, so the clamp falls back.
constexpr double kSeparated = 1e-4;
/// The largest cross product of two rows of Γ − λI below this (scaled, squared) means λ is not simple.
constexpr double kRankTwo = 1e-12;

/// The coefficients of p(x) = x³ − c₂x² + c₁x − c₀ (header).
struct Cubic {
  double c2, c1, c0;
  explicit Cubic(const Mat3& m)
      : c2(m(0, 0) + m(1, 1) + m(2, 2)),
        c1(m(0, 0) * m(1, 1) - m(1, 0) * m(1, 0) + m(0, 0) * m(2, 2) - m(2, 0) * m(2, 0) + m(1, 1) * m(2, 2) -
           m(2, 1) * m(2, 1)),
        c0(m(0, 0) * (m(1, 1) * m(2, 2) - m(2, 1) * m(2, 1)) - m(1, 0) * (m(1, 0) * m(2, 2) - m(2, 1) * m(2, 0)) +
           m(2, 0) * (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0))) {}
  double value(double x) const { return ((x - c2) * x + c1) * x - c0; }
  double slope(double x) const { return (3.0 * x - 2.0 * c2) * x + c1; }
};

/// The root of p nearest `start`, which lies beyond every root on the side of `direction` (−1: left of
/// λ₁, +1: right of λ₃). Both ends are mirror images: right of λ₃, p > 0, p' > 0 and p'' > 0, so Newton
/// falls monotonically onto λ₃ as it climbs onto λ₁ from the left (header). NaN when it does not
/// converge or the root is not separated (kSeparated).

double outer_root(const Cubic& p, double start, double direction) {
  double x = start;
  for (int k = 0; k < kNewtonIterations; ++k) {
    const double value = p.value(x), slope = p.slope(x);
    if (!(slope > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    // Left of λ₁ p < 0 and the step is positive; a value of the other sign is the root's round-off.
    const double step = -value / slope;
    if (!(step * direction < 0.0)) return slope >= kSeparated ? x : std::numeric_limits<double>::quiet_NaN();
    x += step;
    if (std::abs(step) <= kStepConverged * (1.0 + std::abs(x)))
      return slope >= kSeparated ? x : std::numeric_limits<double>::quiet_NaN();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

/// The unit eigenvector of a simple eigenvalue λ: the largest cross product of two rows of m − λI, which
/// span its orthogonal complement (header); the zero vector when λ is not simple.
Vec3 simple_eigenvector(const Mat3& m, double lambda) {
  const Mat3 n = m - lambda * Mat3::Identity();
  const Vec3 r0 = n.row(0).transpose(), r1 = n.row(1).transpose(), r2 = n.row(2).transpose();
  const Vec3 c[3] = {r0.cross(r1), r0.cross(r2), r1.cross(r2)};
  const double s[3] = {c[0].squaredNorm(), c[1].squaredNorm(), c[2].squaredNorm()};
  const int best = s[0] >= s[1] ? (s[0] >= s[2] ? 0 : 2) : (s[1] >= s[2] ? 1 : 2);
  if (!(s[best] > kRankTwo)) return Vec3::Zero();
  return c[best] / std::sqrt(s[best]);
}

/// How many eigenvalues are negative: for a polynomial whose roots are all real, Descartes' rule of
/// signs is exact, and p(−x) = −(x³ + c₂x² + c₁x + c₀), so it is the sign changes along (1, c₂, c₁, c₀).
int negative_count(const Cubic& p) {
  int changes = 0;
  double last = 1.0;
  for (double c : {p.c2, p.c1, p.c0}) {
    if (c == 0.0) continue;
    changes += (c < 0.0) != (last < 0.0);
    last = c;
  }
  return changes;
}

/// The fallback: Eigen's QR iteration, accurate also where clustered eigenvalues make its closed form
/// (computeDirect) lose digits (10⁻⁹ of ‖Γ‖ at eigenvalues ±10⁻¹² of it).
Mat3 clamp_by_eigensolver(const Mat3& gamma) {
  const Eigen::SelfAdjointEigenSolver<Mat3> eigen(gamma);
  return eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() * eigen.eigenvectors().transpose();
}

/// Gershgorin's and Laguerre–Samuelson's bounds on the spectrum, the tighter of each: every λ is within
/// some Γᵢᵢ ± Σ_{j≠i}|Γᵢⱼ|, and within c₂/3 ± √(⅔ ‖Γ − (c₂/3) I‖²_F) (the largest deviation of 3 numbers
/// from their mean with the given sum of squares).
void spectrum_bounds(const Mat3& m, double c2, double& lower, double& upper) {
  lower = std::numeric_limits<double>::infinity(), upper = -lower;
  for (int i = 0; i < 3; ++i) {
    const double radius = std::abs(m(i, (i + 1) % 3)) + std::abs(m(i, (i + 2) % 3));
    lower = std::min(lower, m(i, i) - radius), upper = std::max(upper, m(i, i) + radius);
  }
  const double mean = c2 / 3.0;
  const double spread = std::sqrt((2.0 / 3.0) * (m - mean * Mat3::Identity()).squaredNorm());
  lower = std::max(lower, mean - spread), upper = std::min(upper, mean + spread);
}

}  // namespace

double smallest_eigenvalue_newton(const Mat3& S) {
  const Mat3 m = S.selfadjointView<Eigen::Lower>();
  const double scale = m.cwiseAbs().maxCoeff();
  if (!(scale > 0.0)) return 0.0;
  const Mat3 scaled = m / scale;
  const Cubic p(scaled);
  double lower = 0.0, upper = 0.0;
  spectrum_bounds(scaled, p.c2, lower, upper);
  return scale * outer_root(p, lower, -1.0);
}

Mat3 clamp_negative_eigenvalues(const Mat3& gamma) {
  const Mat3 full = gamma.selfadjointView<Eigen::Lower>();
  const double scale = full.cwiseAbs().maxCoeff();
  if (!(scale > 0.0) || !std::isfinite(scale)) return full;
  const Mat3 m = full / scale;  // entries within ±1: the tolerances above are absolute
  const Cubic p(m);
  const int negatives = negative_count(p);
  if (negatives == 0) return full;
  if (negatives == 3) return Mat3::Zero();
  double lower = 0.0, upper = 0.0;
  spectrum_bounds(m, p.c2, lower, upper);
  if (negatives == 1) {  // Γ⁺ = Γ − λ₁ v₁v₁ᵀ
    const double lambda = outer_root(p, lower, -1.0);
    if (!(lambda < 0.0)) return clamp_by_eigensolver(full);
    const Vec3 v = simple_eigenvector(m, lambda);
    if (v.isZero(0.0)) return clamp_by_eigensolver(full);
    return scale * (m - lambda * v * v.transpose());
  }
  // Two negative: Γ⁺ = λ₃ v₃v₃ᵀ.
  const double lambda = outer_root(p, upper, 1.0);
  if (!(lambda >= 0.0)) return clamp_by_eigensolver(full);
  const Vec3 v = simple_eigenvector(m, lambda);
  if (v.isZero(0.0)) return clamp_by_eigensolver(full);
  return (scale * lambda) * v * v.transpose();
}

}  // namespace affix
