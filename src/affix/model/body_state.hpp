#pragma once
// A body's pose and velocity as every solver reports them and every writer and viewer reads them
// (DESIGN §4): affine bodies give their (p, A), rigid bodies (p, R).
#include "affix/math/types.hpp"

namespace affix {

/// A body's pose: the rest-space point x̄ lands at A·x̄ + p.
struct BodyPose {
  Vec3 p = Vec3::Zero();
  Mat3 A = Mat3::Identity();
};

/// A body's velocity, world frame: the rest-space point x̄ moves at ṗ + Ȧ·x̄.
struct BodyVelocity {
  Vec3 linear = Vec3::Zero();    ///< ṗ: velocity of the body origin, as the scene's `velocity`
  Vec3 angular = Vec3::Zero();   ///< ω: the skew part of Ȧ·A⁻¹ (exactly Ȧ = [ω]ₓA for a rigid body)
  Mat3 A_dot = Mat3::Zero();     ///< Ȧ itself, with any rate of deformation an affine body has
};

}  // namespace affix
