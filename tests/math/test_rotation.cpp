// Rotation helpers against Eigen's AngleAxis and the definitions they implement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "affix/math/rotation.hpp"

namespace affix {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(Rotation, SkewIsTheCrossProduct) {
  const Vec3 v(0.3, -1.2, 2.5), u(-0.7, 0.4, 1.1);
  EXPECT_LT((skew(v) * u - v.cross(u)).norm(), 1e-15);
  EXPECT_EQ(skew(v).transpose(), -skew(v));
}

TEST(Rotation, QuaternionFromAxisAngleMatchesEigen) {
  for (const double angle : {0.0, 0.3, -1.7, kPi, 5.0}) {
    const Vec3 axis(1.0, -2.0, 0.5);
    const Quat q = quaternion_from_axis_angle(3.0 * axis, angle);  // the axis need not be unit
    const Quat expected(Eigen::AngleAxisd(angle, axis.normalized()));
    EXPECT_NEAR(q.norm(), 1.0, 1e-15);
    EXPECT_LT((q.coeffs() - expected.coeffs()).norm(), 1e-15) << angle;
  }
  EXPECT_THROW(quaternion_from_axis_angle(Vec3::Zero(), 1.0), std::invalid_argument);
  EXPECT_THROW(quaternion_from_axis_angle(Vec3(NAN, 0, 0), 1.0), std::invalid_argument);
}

TEST(Rotation, RotationVectorMatchesEigen) {
  const Vec3 axis = Vec3(-0.4, 0.8, 0.2).normalized();
  for (const double angle : {0.0, 1e-12, 1e-8, 1e-5, 1e-4, 2e-4, 0.1, 1.0, 3.0, kPi, 7.0}) {
    const Mat3 R = rotation_from_rotation_vector(angle * axis);
    const Mat3 expected = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
    EXPECT_LT((R - expected).norm(), 4e-15) << angle;
  }
  EXPECT_EQ(rotation_from_rotation_vector(Vec3::Zero()), Mat3::Identity());
}

TEST(Rotation, RotationVectorIsAccurateNearZero) {
  // R = I + a K + b K² with K = [w]ₓ antisymmetric and K² symmetric, so the antisymmetric part of R
  // is a K and the off-diagonal symmetric part is b K². Both coefficients must keep full relative
  // accuracy as θ → 0; the textbook (1 − cos θ)/θ² loses b completely below θ ≈ 1e-8. References from
  // the Taylor series, exact to double precision for θ < 1e-2:
  //   a = 1 − θ²/6 + θ⁴/120,   b = 1/2 − θ²/24 + θ⁴/720.
  for (const double scale : {1e-3, 1e-6, 1e-9, 1e-12}) {
    const Vec3 w = scale * Vec3(3.0, -1.0, 2.0);
    const double t2 = w.squaredNorm();
    const double a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0, b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
    const Mat3 K = skew(w), K2 = K * K;
    const Mat3 R = rotation_from_rotation_vector(w);
    const Mat3 antisymmetric = 0.5 * (R - R.transpose());
    const Mat3 symmetric = 0.5 * (R + R.transpose());
    EXPECT_LT((antisymmetric - a * K).norm(), 1e-15 * K.norm()) << scale;
    // Rounding of R's off-diagonal entries (about ε·θ) limits this to ~ε/θ relative to b K² (~θ²).
    const double relative = std::max(1e-12, 1e-15 / std::sqrt(t2));
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        if (i == j) continue;
        EXPECT_NEAR(symmetric(i, j), b * K2(i, j), relative * std::abs(b * K2(i, j))) << scale;
      }
    }
  }
}

TEST(Rotation, PolarRotationOfAStretchedRotation) {
  const Mat3 R = Eigen::AngleAxisd(1.1, Vec3(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
  const Mat3 Q = Eigen::AngleAxisd(0.4, Vec3(0.0, 1.0, 1.0).normalized()).toRotationMatrix();
  const Mat3 S = Q * Vec3(2.0, 0.5, 1.3).asDiagonal() * Q.transpose();  // symmetric positive definite
  const Mat3 P = polar_rotation(R * S);
  EXPECT_LT((P - R).norm(), 1e-14);
  EXPECT_LT((polar_rotation(R) - R).norm(), 1e-15);
  EXPECT_LT((polar_rotation(Mat3::Identity()) - Mat3::Identity()).norm(), 1e-15);
}

TEST(Rotation, PolarRotationOfAReflectionIsAProperRotation) {
  // A mirror in z after a rotation: the nearest rotation flips the least-stretched direction.
  const Mat3 R = Eigen::AngleAxisd(0.6, Vec3(0.0, 0.0, 1.0)).toRotationMatrix();
  const Mat3 A = R * Vec3(2.0, 3.0, -0.5).asDiagonal();
  const Mat3 P = polar_rotation(A);
  EXPECT_NEAR(P.determinant(), 1.0, 1e-14);
  EXPECT_LT((P.transpose() * P - Mat3::Identity()).norm(), 1e-14);
  EXPECT_LT((P - R).norm(), 1e-14);
}

}  // namespace
}  // namespace affix
