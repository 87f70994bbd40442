#pragma once
// Projection of a symmetric matrix onto the cone of positive semi-definite matrices.
//
// Newton's method needs a PSD Hessian to produce a descent direction; an energy stencil's Hessian may be
// indefinite, so each one is projected before assembly (DESIGN §2). With the eigendecomposition
// H = V Λ Vᵀ, the nearest PSD matrix in the Frobenius norm is V max(Λ, 0) Vᵀ: negative eigenvalues are
// clamped to zero, eigenvectors are kept.
#include <Eigen/Core>
#include <Eigen/Eigenvalues>

namespace affix {

/// The nearest positive semi-definite matrix to the symmetric part of `H` (Frobenius norm). Returns
/// `H` itself, bit for bit, when `H` is symmetric and already PSD.
template <int N>
Eigen::Matrix<double, N, N> project_to_psd(const Eigen::Matrix<double, N, N>& H) {
  using Matrix = Eigen::Matrix<double, N, N>;
  // Only the symmetric part has real eigenvalues; for a symmetric H this is H exactly ((a+a)/2 == a).
  const Matrix symmetric = 0.5 * (H + H.transpose());
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(symmetric);
  if (eigen.info() != Eigen::Success) {
    // Non-finite entries: nothing sensible to project; the caller's non-finite check reports it.
    return symmetric;
  }
  // Eigenvalues come sorted in increasing order.
  if (symmetric.rows() == 0 || eigen.eigenvalues()(0) >= 0.0) {
    return symmetric;
  }
  const auto clamped = eigen.eigenvalues().cwiseMax(0.0);
  const Matrix projected = eigen.eigenvectors() * clamped.asDiagonal() * eigen.eigenvectors().transpose();
  // The product is symmetric only up to rounding; assembly and Cholesky want it exactly so.
  return 0.5 * (projected + projected.transpose());
}

/// Dynamic-size version, for stencils whose size is known only at run time.
inline Eigen::MatrixXd project_to_psd(const Eigen::MatrixXd& H) {
  return project_to_psd<Eigen::Dynamic>(H);
}

}  // namespace affix
