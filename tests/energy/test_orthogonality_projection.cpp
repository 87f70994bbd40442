// The closed-form projection of the orthogonality Hessian against the numerical one (a 9×9
// eigendecomposition), and its analytic eigenpairs against the Hessian itself.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "affix/energy/orthogonality_potential.hpp"
#include "affix/energy/orthogonality_projection.hpp"
#include "affix/math/psd_projection.hpp"

namespace affix {
namespace {

constexpr double kStiffness = 1e7, kVolume = 0.3;

Vec12 state_of(const Mat3& A) {
  Vec12 q;
  q << 0.4, -1.0, 2.0, A.row(0).transpose(), A.row(1).transpose(), A.row(2).transpose();
  return q;
}

Mat3 rotation(double angle, const Vec3& axis) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

/// Rotations times stretches: compressed, stretched, mixed, uniform, exact rotations, and singular
/// values below 1/√3 (where the scaling modes turn negative), each rotated on both sides.
std::vector<Mat3> shapes() {
  std::vector<Mat3> out;
  const std::vector<Vec3> stretches = {{1, 1, 1},          {0.99, 0.995, 0.98}, {1.01, 1.02, 1.005}, {0.97, 1.0, 1.03},
                                       {0.9, 0.9, 0.9},    {1.1, 1.1, 1.1},     {0.5, 1.0, 1.2},     {0.3, 0.4, 0.45},
                                       {1 - 1e-9, 1, 1 + 1e-9}, {0.95, 0.95, 1.05}};
  for (std::size_t k = 0; k < stretches.size(); ++k) {
    const Mat3 R1 = rotation(0.3 + k, Vec3(1, 2 + k, 3)), R2 = rotation(1.1 * k, Vec3(-2, 1, 0.5 + k));
    out.push_back(R1 * stretches[k].asDiagonal() * R2);
  }
  std::srand(11);
  for (int k = 0; k < 20; ++k) out.push_back(Mat3::Identity() + 0.2 * Mat3::Random());  // general, near I
  return out;
}

Eigen::Matrix<double, 9, 1> flatten_rows(const Mat3& M) {
  Eigen::Matrix<double, 9, 1> m;
  for (int i = 0; i < 3; ++i) m.segment<3>(3 * i) = M.row(i).transpose();
  return m;
}

TEST(OrthogonalityProjection, AnalyticEigenpairsAreTheHessians) {
  // H m = λ m for the nine modes of the header: the closed form is derived, not fitted.
  for (const Mat3& A : shapes()) {
    const Mat9 H = orthogonality_potential_hessian(state_of(A), kStiffness, kVolume).bottomRightCorner<9, 9>();
    const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Vec3 s = svd.singularValues();
    const Mat3 &U = svd.matrixU(), &V = svd.matrixV();
    const double c = 4.0 * kStiffness * kVolume;
    const auto check = [&](double lambda, const Mat3& M) {
      const Eigen::Matrix<double, 9, 1> m = flatten_rows(M);
      EXPECT_NEAR(m.norm(), 1.0, 1e-12);
      EXPECT_LT((H * m - lambda * m).norm(), 1e-10 * H.norm()) << "λ " << lambda << " A\n" << A;
    };
    for (int k = 0; k < 3; ++k) check(c * (3 * s[k] * s[k] - 1), U.col(k) * V.col(k).transpose());
    for (int i = 0; i < 3; ++i) {
      for (int j = i + 1; j < 3; ++j) {
        const Mat3 ij = U.col(i) * V.col(j).transpose(), ji = U.col(j) * V.col(i).transpose();
        check(c * (s[i] * s[i] + s[i] * s[j] + s[j] * s[j] - 1), (ij + ji) / std::sqrt(2.0));
        check(c * (s[i] * s[i] - s[i] * s[j] + s[j] * s[j] - 1), (ij - ji) / std::sqrt(2.0));
      }
    }
  }
}

TEST(OrthogonalityProjection, EqualsTheNumericalProjection) {
  int projected = 0;
  for (const Mat3& A : shapes()) {
    const Vec12 q = state_of(A);
    const Mat9 H = orthogonality_potential_hessian(q, kStiffness, kVolume).bottomRightCorner<9, 9>();
    const Mat9 reference = project_to_psd<9>(H);
    const Mat9 P = orthogonality_projected_hessian(q, kStiffness, kVolume);
    EXPECT_EQ(P, P.transpose());  // exactly: CHOLMOD and the tree solve read one triangle
    EXPECT_LT((P - reference).norm(), 1e-11 * H.norm()) << "A\n" << A;
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat9>(P).eigenvalues().minCoeff(), -1e-11 * H.norm());
    projected += (P != H);
  }
  EXPECT_GT(projected, 10);  // the shapes include indefinite Hessians (compressed bodies)
}

TEST(OrthogonalityProjection, LeavesAPositiveHessianBitForBit) {
  // Stretched in every direction: every mode is positive, so nothing is removed.
  const Mat3 A = rotation(0.4, Vec3(1, 1, 0)) * Vec3(1.02, 1.03, 1.04).asDiagonal() * rotation(-1.0, Vec3(0, 1, 2));
  const Vec12 q = state_of(A);
  const Mat9 H = orthogonality_potential_hessian(q, kStiffness, kVolume).bottomRightCorner<9, 9>();
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Mat9>(H).eigenvalues().minCoeff(), 0.0);
  EXPECT_EQ(orthogonality_projected_hessian(q, kStiffness, kVolume), H);
}

}  // namespace
}  // namespace affix
