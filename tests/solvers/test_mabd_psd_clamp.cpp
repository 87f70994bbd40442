// The twist stiffness's clamp (psd_clamp.hpp): Γ with its negative eigenvalues set to 0, by Newton on the
// characteristic cubic, against Eigen's iterative SelfAdjointEigenSolver (QR, not the closed form the
// clamp falls back to) at random symmetric matrices of every inertia, with simple, repeated and zero
// eigenvalues, across scales from 10⁻⁸ to 10⁸.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "affix/solvers/mabd/psd_clamp.hpp"

namespace affix {
namespace {

/// Σ max(λ_k, 0) v_k v_kᵀ by Eigen's QR iteration: the reference.
Mat3 reference_clamp(const Mat3& S) {
  Eigen::SelfAdjointEigenSolver<Mat3> eigen(S);
  return eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() * eigen.eigenvectors().transpose();
}

class Random {
 public:
  explicit Random(unsigned seed) : rng_(seed) {}
  double normal() { return std::normal_distribution<double>()(rng_); }
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
  Mat3 rotation() { return Quat(normal(), normal(), normal(), normal()).normalized().toRotationMatrix(); }
  /// V diag(λ) Vᵀ for a random rotation V.
  Mat3 with_spectrum(const Vec3& lambda) {
    const Mat3 V = rotation();
    return V * lambda.asDiagonal() * V.transpose();
  }
  Mat3 symmetric() {
    Mat3 S;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) S(i, j) = normal();
    return 0.5 * (S + S.transpose());
  }

 private:
  std::mt19937 rng_;
};

void expect_clamp_matches(const Mat3& S, const char* what, int sample) {
  const Mat3 clamped = clamp_negative_eigenvalues(S);
  const Mat3 reference = reference_clamp(S);
  const double size = S.norm();
  EXPECT_LE((clamped - reference).norm(), 1e-10 * size) << what << ", sample " << sample << "\n" << S;
  EXPECT_LE((clamped - clamped.transpose()).norm(), 1e-14 * size) << what << ", sample " << sample;
  // An eigenvalue within 10⁻¹¹‖Γ‖ of 0 may be left as it is (psd_clamp.hpp).
  EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat3>(clamped).eigenvalues().minCoeff(), -1e-11 * size) << what;
}

TEST(MabdPsdClamp, MatchesTheEigensolverAtRandomSymmetricMatrices) {
  Random random(5);
  for (int sample = 0; sample < 2000; ++sample) {
    const double scale = std::pow(10.0, random.uniform(-8.0, 8.0));
    expect_clamp_matches(scale * random.symmetric(), "random entries", sample);
  }
}

TEST(MabdPsdClamp, MatchesTheEigensolverForEveryCountOfNegativeEigenvalues) {
  Random random(9);
  for (int sample = 0; sample < 1000; ++sample) {
    Vec3 lambda(random.uniform(0.01, 1.0), random.uniform(0.01, 1.0), random.uniform(0.01, 1.0));
    for (int k = 0; k < 3; ++k)
      if (k < sample % 4) lambda[k] = -lambda[k];  // 0, 1, 2 or 3 negative
    expect_clamp_matches(random.with_spectrum(lambda), "chosen spectrum", sample);
  }
}

// Repeated eigenvalues make Newton converge slowly and the polynomial's roots inaccurate: the clamp must
// still be right (by its fallback where needed), whichever eigenvalues repeat and with which signs.
TEST(MabdPsdClamp, MatchesTheEigensolverAtRepeatedAndZeroEigenvalues) {
  Random random(13);
  const double a = 0.7, b = 0.3;
  const Vec3 spectra[] = {{-a, -a, b}, {-a, b, b}, {-a, -a, -a}, {a, a, a}, {-a, 0.0, 0.0}, {-a, -a, 0.0},
                          {-a, 0.0, b}, {0.0, 0.0, 0.0}, {-a, 1e-9, b}, {-a, -a + 1e-9, b}, {-a, b, b + 1e-9},
                          {-1e-9, b, b}, {-a, -1e-12, 1e-12}};
  int sample = 0;
  for (const Vec3& lambda : spectra)
    for (int k = 0; k < 50; ++k) expect_clamp_matches(random.with_spectrum(lambda), "repeated", sample++);
  // Exactly diagonal: Gershgorin's bound is the root itself.
  expect_clamp_matches(Vec3(-a, b, b).asDiagonal().toDenseMatrix(), "diagonal", sample++);
  expect_clamp_matches(Vec3(-a, -b, a).asDiagonal().toDenseMatrix(), "diagonal", sample++);
}

TEST(MabdPsdClamp, LeavesAPositiveSemiDefiniteMatrixAsItIs) {
  Random random(17);
  for (int sample = 0; sample < 200; ++sample) {
    const Mat3 S = random.with_spectrum(Vec3(random.uniform(0.0, 1.0), random.uniform(0.0, 1.0), 1.0));
    EXPECT_TRUE(clamp_negative_eigenvalues(S).isApprox(S, 1e-12)) << sample;
  }
  EXPECT_EQ(clamp_negative_eigenvalues(Mat3::Zero()), Mat3::Zero());
}

// The Newton root itself, where it is separated: it must not be the fallback that does the work.
TEST(MabdPsdClamp, NewtonFindsTheSmallestEigenvalueOfASeparatedSpectrum) {
  Random random(21);
  for (int sample = 0; sample < 1000; ++sample) {
    const Mat3 S = random.symmetric();
    const Vec3 lambda = Eigen::SelfAdjointEigenSolver<Mat3>(S).eigenvalues();
    const double scale = S.cwiseAbs().maxCoeff();
    const double slope = (lambda[1] - lambda[0]) * (lambda[2] - lambda[0]) / (scale * scale);
    const double newton = smallest_eigenvalue_newton(S);
    if (slope < 1e-3) continue;  // clustered: NaN is allowed there
    ASSERT_TRUE(std::isfinite(newton)) << sample << "\n" << S;
    EXPECT_NEAR(newton, lambda[0], 1e-12 * scale) << sample;
  }
  EXPECT_TRUE(std::isnan(smallest_eigenvalue_newton(Vec3(-1.0, -1.0, 2.0).asDiagonal().toDenseMatrix())) ||
              std::abs(smallest_eigenvalue_newton(Vec3(-1.0, -1.0, 2.0).asDiagonal().toDenseMatrix()) + 1.0) < 1e-7);
}

}  // namespace
}  // namespace affix
