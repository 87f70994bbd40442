#include "affix/math/rotation.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/SVD>

namespace affix {

namespace {

/// sin(x)/x without the 0/0 at x = 0. Below 1e-4 the Taylor series 1 − x²/6 is exact to double
/// precision (the next term, x⁴/120, is below 1e-18).
double sinc(double x) {
  return std::abs(x) < 1e-4 ? 1.0 - x * x / 6.0 : std::sin(x) / x;
}

}  // namespace

Mat3 skew(const Vec3& v) {
  Mat3 K;
  K << 0.0, -v.z(), v.y(),
       v.z(), 0.0, -v.x(),
       -v.y(), v.x(), 0.0;
  return K;
}

Vec3 any_perpendicular(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return n.cross(helper).normalized();
}

Quat quaternion_from_axis_angle(const Vec3& axis, double radians) {
  const double length = axis.norm();
  if (!(length > 0.0) || !std::isfinite(length) || !std::isfinite(radians)) {
    throw std::invalid_argument("a rotation needs a finite, non-zero axis and a finite angle");
  }
  // q = (cos θ/2, sin θ/2 · n) for the unit axis n.
  const double half = 0.5 * radians;
  const Vec3 xyz = std::sin(half) / length * axis;
  return Quat(std::cos(half), xyz.x(), xyz.y(), xyz.z());
}

Mat3 rotation_from_rotation_vector(const Vec3& w) {
  // Rodrigues with K = [w]ₓ and θ = |w|:  R = I + (sin θ / θ) K + ((1 − cos θ) / θ²) K².
  // 1 − cos θ = 2 sin²(θ/2) avoids the cancellation of the textbook form, so
  // (1 − cos θ)/θ² = ½ sinc²(θ/2), and both coefficients are smooth at θ = 0.
  const double theta = w.norm();
  const Mat3 K = skew(w);
  const double a = sinc(theta);
  const double s = sinc(0.5 * theta);
  const double b = 0.5 * s * s;
  return Mat3::Identity() + a * K + b * K * K;
}

Mat3 polar_rotation(const Mat3& A) {
  // A = U Σ Vᵀ; the nearest orthogonal matrix is U Vᵀ. If that is a reflection (det −1), the nearest
  // rotation flips the singular direction with the smallest singular value (the last, Σ is sorted).
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  const Mat3& V = svd.matrixV();
  if ((U * V.transpose()).determinant() < 0.0) {
    U.col(2) = -U.col(2);
  }
  return U * V.transpose();
}

}  // namespace affix
