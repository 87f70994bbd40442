#include "affix/energy/orthogonality_projection.hpp"

#include <Eigen/SVD>
#include <cmath>

#include "affix/energy/orthogonality_potential.hpp"

namespace affix {
namespace {

/// The 3×3 matrix M flattened row by row (A's rows are q's segments 3, 6, 9).
Eigen::Matrix<double, 9, 1> flatten_rows(const Mat3& M) {
  Eigen::Matrix<double, 9, 1> m;
  for (int i = 0; i < 3; ++i) m.segment<3>(3 * i) = M.row(i).transpose();
  return m;
}

}  // namespace

Mat9 orthogonality_projected_hessian(const Vec12& q, double stiffness, double volume) {
  Mat9 H = orthogonality_potential_hessian(q, stiffness, volume).bottomRightCorner<9, 9>();
  Mat3 A;
  for (int i = 0; i < 3; ++i) A.row(i) = q.segment<3>(3 + 3 * i).transpose();
  if (!A.allFinite()) return H;
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Vec3 s = svd.singularValues();
  const Mat3 &U = svd.matrixU(), &V = svd.matrixV();
  const double c = 4.0 * stiffness * volume;
  // H − λ m mᵀ = H + w wᵀ, w = √(−λ) m, for each negative mode (header); the modes are orthonormal, so
  // this removes exactly them. wᵢwⱼ = wⱼwᵢ: the result stays exactly symmetric.
  const auto remove = [&](double lambda, const Mat3& M) {
    if (!(lambda < 0.0)) return;
    const Eigen::Matrix<double, 9, 1> w = std::sqrt(-lambda) * flatten_rows(M);
    H.noalias() += w * w.transpose();
  };
  for (int k = 0; k < 3; ++k) remove(c * (3.0 * s[k] * s[k] - 1.0), U.col(k) * V.col(k).transpose());
  const double root_half = std::sqrt(0.5);
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      const Mat3 ij = U.col(i) * V.col(j).transpose(), ji = U.col(j) * V.col(i).transpose();
      const double sum = s[i] * s[i] + s[j] * s[j] - 1.0;
      remove(c * (sum + s[i] * s[j]), root_half * (ij + ji));  // twist
      remove(c * (sum - s[i] * s[j]), root_half * (ij - ji));  // flip
    }
  }
  return H;
}

}  // namespace affix
