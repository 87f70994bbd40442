// PSD projection: symmetric output, no negative eigenvalues, nearest in Frobenius norm, identity on
// PSD input.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "affix/math/psd_projection.hpp"
#include "affix/math/types.hpp"

namespace affix {
namespace {

template <int N>
Eigen::Matrix<double, N, N> random_symmetric(int n = N) {
  const Eigen::Matrix<double, N, N> R = Eigen::Matrix<double, N, N>::Random(n, n);
  return 0.5 * (R + R.transpose());
}

template <typename Matrix>
void expect_projected(const Matrix& H, const Matrix& P) {
  EXPECT_EQ(P, P.transpose());  // exactly
  const Eigen::SelfAdjointEigenSolver<Matrix> before(H), after(P);
  EXPECT_GE(after.eigenvalues().minCoeff(), -1e-12);
  // P − H = −V min(Λ, 0) Vᵀ, so ‖P − H‖_F is the norm of the negative eigenvalues: the least
  // distance from H to any PSD matrix.
  const double negative_part = before.eigenvalues().cwiseMin(0.0).norm();
  EXPECT_NEAR((P - H).norm(), negative_part, 1e-12);
  EXPECT_GT(negative_part, 0.0);  // the inputs below are indefinite
}

TEST(PsdProjection, FixedSizeIndefiniteMatrices) {
  std::srand(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 H3 = random_symmetric<3>() - 0.5 * Mat3::Identity();
    const Mat12 H12 = random_symmetric<12>();
    SCOPED_TRACE(trial);
    expect_projected<Mat3>(H3, project_to_psd<3>(H3));
    expect_projected<Mat12>(H12, project_to_psd<12>(H12));
  }
}

TEST(PsdProjection, DynamicSize) {
  std::srand(11);
  const MatX H = random_symmetric<Eigen::Dynamic>(9);
  expect_projected<MatX>(H, project_to_psd(H));
}

TEST(PsdProjection, LeavesPsdMatricesUnchanged) {
  std::srand(3);
  const Mat12 B = Mat12::Random();
  const Mat12 spd = B * B.transpose() + 1e-3 * Mat12::Identity();
  EXPECT_EQ(project_to_psd<12>(spd), spd);  // bit for bit
  const Mat3 singular = Vec3(1.0, 2.0, 0.0).asDiagonal();
  EXPECT_EQ(project_to_psd<3>(singular), singular);
  EXPECT_EQ(project_to_psd(MatX(spd)), MatX(spd));
}

TEST(PsdProjection, ClampsKnownEigenvalues) {
  // diag(2, −3) rotated by 30°: the projection is diag(2, 0) rotated the same way.
  const Mat2 R = Eigen::Rotation2Dd(0.5235987755982988).toRotationMatrix();
  const Mat2 H = R * Vec2(2.0, -3.0).asDiagonal() * R.transpose();
  const Mat2 expected = R * Vec2(2.0, 0.0).asDiagonal() * R.transpose();
  EXPECT_LT((project_to_psd<2>(H) - expected).norm(), 1e-14);
  EXPECT_EQ(project_to_psd<2>(-Mat2::Identity()), Mat2::Zero());
}

}  // namespace
}  // namespace affix
