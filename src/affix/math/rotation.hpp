#pragma once
// Rotation helpers: the cross-product matrix, axis-angle and rotation-vector maps, and the rotation
// factor of a general 3×3 matrix (used to read a rotation out of an affine body's A).
#include "affix/math/types.hpp"

namespace affix {

/// The cross-product matrix [v]ₓ, so that skew(v)·u = v × u.
Mat3 skew(const Vec3& v);

/// A unit vector perpendicular to the unit vector n, the same one for the same n (n × eₓ, or n × e_y
/// when n is within about 25° of eₓ).
Vec3 any_perpendicular(const Vec3& n);

/// Unit quaternion rotating by `radians` about `axis` (right-handed). The axis need not be unit length;
/// throws std::invalid_argument when it is zero or not finite.
Quat quaternion_from_axis_angle(const Vec3& axis, double radians);

/// Rodrigues' formula: the rotation by |w| radians about w/|w|, and the identity for w = 0.
/// Accurate for every |w|, including |w| → 0.
Mat3 rotation_from_rotation_vector(const Vec3& w);

/// The proper rotation nearest to A in the Frobenius norm: the rotation factor R of the polar
/// decomposition A = R·S when det A > 0. When det A ≤ 0 the reflection is removed by flipping the
/// direction of least stretch, so the result always has det R = +1.
Mat3 polar_rotation(const Mat3& A);

}  // namespace affix
