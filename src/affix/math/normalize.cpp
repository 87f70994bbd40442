#include "affix/math/normalize.hpp"

#include <cmath>

namespace affix {

namespace {

/// v / ‖v‖ by way of v / max|vᵢ|; nullopt for zero or non-finite v.
template <int N>
std::optional<Eigen::Matrix<double, N, 1>> scaled_normalize(const Eigen::Matrix<double, N, 1>& v) {
  if (!v.allFinite()) return std::nullopt;
  const double largest = v.cwiseAbs().maxCoeff();
  if (!(largest > 0.0)) return std::nullopt;
  const Eigen::Matrix<double, N, 1> unit_max = v / largest;  // each |component| ≤ 1, exact for the largest
  return Eigen::Matrix<double, N, 1>(unit_max / unit_max.norm());
}

}  // namespace

double scaled_norm(const Vec3& v) {
  const double largest = v.cwiseAbs().maxCoeff();
  if (!(largest > 0.0) || !std::isfinite(largest)) return largest;  // 0, inf or NaN already
  return largest * (v / largest).norm();
}

std::optional<Vec3> normalized_direction(const Vec3& v) { return scaled_normalize<3>(v); }

std::optional<Quat> normalized_quaternion(const Quat& q) {
  const auto unit = scaled_normalize<4>(q.coeffs());
  if (!unit) return std::nullopt;
  return Quat(*unit);  // coeffs() order is (x, y, z, w), the order this constructor takes
}

}  // namespace affix
