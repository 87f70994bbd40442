// Four bodies' per-body work as vector lanes (body_lanes.hpp) against the one-body functions of
// corotated_body.hpp they replace: the polar factor, the co-rotated elastic gradient, Ψ with the twist
// stiffness Γ (clamped or not) and the twist gain K = (I + h²ΓW)⁻¹h²Γ, on random bodies: rotations times
// strains from 10⁻⁹ to 0.3 (compressed and stretched, so that Γ fails its positive semi-definite test in
// some lanes and not in others), inverted, singular and far-stretched matrices in some lanes (the polar
// factor's SVD fallback and its most steps), materials differing lane by lane, and padded lanes.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "affix/body/affine_body.hpp"
#include "affix/solvers/mabd/body_lanes.hpp"

namespace affix {
namespace {

constexpr RotationExtraction kPolar = RotationExtraction::polar;

class RandomLanes {
 public:
  explicit RandomLanes(unsigned seed) : rng_(seed) {}

  /// R (I + s E) with E uniform in [−1, 1], s log-uniform in [10⁻⁹, 0.3]; now and then inverted (a
  /// reflection), singular or the identity.
  Mat3 state() {
    std::normal_distribution<double> normal;
    const Mat3 R = Quat(normal(rng_), normal(rng_), normal(rng_), normal(rng_)).normalized().toRotationMatrix();
    const double scale = std::pow(10.0, std::uniform_real_distribution<double>(-9.0, std::log10(0.3))(rng_));
    Mat3 A = R * (Mat3::Identity() + scale * uniform());
    const int kind = std::uniform_int_distribution<int>(0, 19)(rng_);
    if (kind == 0) A.col(0) = -A.col(0);              // det < 0: the SVD
    if (kind == 1) A.col(2) = A.col(0) + A.col(1);    // singular
    if (kind == 2) A = Mat3::Identity();              // a padded lane's state
    if (kind == 3) A = R * Vec3(5.0, 0.2, 1.0).asDiagonal();  // far from a rotation: the most steps
    return A;
  }
  LaneMaterial material() {
    std::uniform_real_distribution<double> u(0.5, 2.0);
    return {0.01 * u(rng_), Lame::from_young(1e7 * u(rng_), 0.45 * u(rng_) / 2.0)};
  }
  Mat3 uniform() {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Mat3 M;
    for (int k = 0; k < 9; ++k) M(k / 3, k % 3) = u(rng_);
    return M;
  }
  /// Symmetric positive semi-definite, of rank 0 to 3, scaled over decades.
  Mat3 psd() {
    const int rank = std::uniform_int_distribution<int>(0, 3)(rng_);
    Mat3 G = Mat3::Zero();
    for (int k = 0; k < rank; ++k) {
      const Vec3 v = uniform().col(0);
      G += v * v.transpose();
    }
    return std::pow(10.0, std::uniform_real_distribution<double>(-6.0, 2.0)(rng_)) * G;
  }

 private:
  std::mt19937 rng_;
};

double relative(const Mat3& a, const Mat3& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

TEST(MabdBodyLanes, PolarFactorsEqualTheOneBodyPolarFactor) {
  RandomLanes random(11);
  int fallbacks = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Mat3 A[kBodyLanes], R[kBodyLanes];
    for (Mat3& a : A) a = random.state();
    polar_factors4(A, R);
    for (int k = 0; k < kBodyLanes; ++k) {
      const Mat3 expected = rotation_of(A[k], kPolar);
      fallbacks += !(A[k].determinant() > 0.0);
      ASSERT_LE((R[k] - expected).cwiseAbs().maxCoeff(), 1e-15) << "trial " << trial << " lane " << k;
      ASSERT_LE((R[k].transpose() * R[k] - Mat3::Identity()).cwiseAbs().maxCoeff(), 1e-14);
    }
  }
  EXPECT_GT(fallbacks, 100);  // the SVD lanes were exercised
}

TEST(MabdBodyLanes, ElasticGradientsEqualTheOneBodyGradient) {
  RandomLanes random(12);
  for (int trial = 0; trial < 2000; ++trial) {
    Mat3 A[kBodyLanes], R[kBodyLanes];
    Vec12 gradient[kBodyLanes];
    LaneMaterial material[kBodyLanes];
    for (int k = 0; k < kBodyLanes; ++k) A[k] = random.state(), material[k] = random.material();
    polar_factors4(A, R);
    elastic_gradients4(A, R, material, gradient);
    for (int k = 0; k < kBodyLanes; ++k) {
      const Vec12 expected =
          elastic_gradient(affine_state(Vec3::Zero(), A[k]), R[k], material[k].volume, material[k].lame, kPolar);
      ASSERT_TRUE(expected.head<3>().isZero(0.0));
      ASSERT_TRUE(gradient[k].head<3>().isZero(0.0));
      // Near rest the gradient is round-off of the strain's size: compare against the stress's scale.
      const double scale = material[k].volume * 2.0 * (material[k].lame.mu + material[k].lame.lambda) * A[k].norm();
      ASSERT_LE((gradient[k] - expected).norm(), 1e-14 * scale) << "trial " << trial << " lane " << k;
    }
  }
}

TEST(MabdBodyLanes, ElasticStatesEqualTheOneBodyEnergyAndTwistStiffness) {
  RandomLanes random(13);
  int clamped = 0, kept = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Mat3 A[kBodyLanes], R[kBodyLanes];
    LaneMaterial material[kBodyLanes];
    ElasticState state[kBodyLanes];
    for (int k = 0; k < kBodyLanes; ++k) A[k] = random.state(), material[k] = random.material();
    polar_factors4(A, R);
    elastic_states4(A, R, material, state);
    for (int k = 0; k < kBodyLanes; ++k) {
      if (!(A[k].determinant() > 1e-6)) continue;  // Γ of an inverted or singular body: not compared
      const ElasticState expected = elastic_state(A[k], R[k], material[k].volume, material[k].lame, kPolar);
      ASSERT_NEAR(state[k].energy, expected.energy, 1e-13 * expected.energy + 1e-300) << "trial " << trial;
      // Γ's scale: the stress V(2μ + 3λ)‖ε‖, so that a Γ of round-off size near rest compares absolutely.
      const double strain = (A[k] - R[k]).norm();
      const double scale = material[k].volume * (2.0 * material[k].lame.mu + 3.0 * material[k].lame.lambda) * strain;
      ASSERT_LE((state[k].twist - expected.twist).norm(), 1e-10 * scale + 1e-300) << "trial " << trial << " lane " << k;
      const Eigen::SelfAdjointEigenSolver<Mat3> gamma(0.5 * (state[k].twist + state[k].twist.transpose()));
      ASSERT_GE(gamma.eigenvalues().minCoeff(), -1e-10 * scale);
      // Whether this lane's Γ needed the clamp: Γ/V = (tr(P) I − P)(tr(S) I − S)⁻¹ symmetrised, unclamped.
      const Mat3 RtA = R[k].transpose() * A[k], S = 0.5 * (RtA + RtA.transpose()), I = Mat3::Identity();
      const Mat3 P = 2.0 * material[k].lame.mu * (S - I) + material[k].lame.lambda * (S - I).trace() * I;
      const Mat3 product = (P.trace() * I - P) * (S.trace() * I - S).inverse();
      const Eigen::SelfAdjointEigenSolver<Mat3> raw(0.5 * (product + product.transpose()));
      raw.eigenvalues().minCoeff() < -1e-9 * raw.eigenvalues().cwiseAbs().maxCoeff() ? ++clamped : ++kept;
    }
  }
  EXPECT_GT(kept, 1000);
  EXPECT_GT(clamped, 1000);
}

TEST(MabdBodyLanes, TwistGainsEqualCoRotationsGain) {
  RandomLanes random(14);
  for (int trial = 0; trial < 2000; ++trial) {
    Mat3 G[kBodyLanes], W[kBodyLanes], K[kBodyLanes];
    const Mat3* g[kBodyLanes];
    const Mat3* w[kBodyLanes];
    for (int k = 0; k < kBodyLanes; ++k) {
      G[k] = random.psd();
      const Mat3 B = random.uniform();
      W[k] = B * B.transpose() + 0.1 * Mat3::Identity();
      g[k] = &G[k], w[k] = &W[k];
    }
    twist_gains4(g, w, K);
    for (int k = 0; k < kBodyLanes; ++k) {
      const Mat3 expected = (Mat3::Identity() + G[k] * W[k]).inverse() * G[k];
      if (G[k].isZero(0.0)) {
        ASSERT_TRUE(K[k].isZero(0.0));
        continue;
      }
      // Both invert I + h²ΓW, each with its own round-off: to within its condition number.
      const Eigen::JacobiSVD<Mat3> svd(Mat3::Identity() + G[k] * W[k]);
      const double condition = svd.singularValues()(0) / svd.singularValues()(2);
      const double tolerance = 1e-14 * (condition + 1.0);
      ASSERT_LE(relative(K[k], expected), tolerance) << "trial " << trial << " lane " << k;
      // And K is what CoRotation's one-body set_twist makes of the same h²Γ and W.
      CorotatedFactor factor(Mat12::Identity(), Mat12::Zero(), 0.01);
      factor.twist_compliance = W[k];
      CoRotation Q(Mat3::Identity());
      Q.set_twist(factor, G[k]);
      ASSERT_LE(relative(K[k], Q.twist_gain()), tolerance);
    }
  }
}

}  // namespace
}  // namespace affix

namespace affix {
namespace {

TEST(MabdBodyLanes, BallBlocksEqualTheirDefinition) {
  // ball_brackets.hpp: J(P_a) H⁻¹ J(P_c)ᵀ = R (M − Y_a K Y_cᵀ) Rᵀ; K = 0 for an untwisted body, and lanes
  // that share a matrix (a chain's bodies share their middles and brackets) read it through one pointer.
  RandomLanes random(15);
  for (int trial = 0; trial < 2000; ++trial) {
    Mat3 R[kBodyLanes], K[kBodyLanes], Ya[kBodyLanes], Yc[kBodyLanes], M[kBodyLanes], block[kBodyLanes];
    BallBlockLane lanes[kBodyLanes];
    Mat3* const out[kBodyLanes] = {&block[0], &block[1], &block[2], &block[3]};
    for (int k = 0; k < kBodyLanes; ++k) {
      R[k] = rotation_of(random.state(), kPolar);
      K[k] = random.psd();  // rank 0: an untwisted body
      Ya[k] = random.uniform(), Yc[k] = random.uniform(), M[k] = 1e3 * random.uniform();
      lanes[k] = {&R[k], &K[k], &Ya[k], &Yc[k], &M[k]};
    }
    if (trial % 3 == 0) lanes[2].middle = lanes[1].middle, lanes[3].Ya = lanes[0].Yc;
    ball_blocks4(lanes, out);
    for (int k = 0; k < kBodyLanes; ++k) {
      const BallBlockLane& l = lanes[k];
      const Mat3 inner = *l.middle - *l.Ya * *l.K * l.Yc->transpose();
      const Mat3 expected = *l.R * inner * l.R->transpose();
      const double scale = l.middle->norm() + l.Ya->norm() * l.K->norm() * l.Yc->norm();
      ASSERT_LE((block[k] - expected).norm(), 1e-14 * scale) << "trial " << trial << " lane " << k;
    }
  }
}

}  // namespace
}  // namespace affix
