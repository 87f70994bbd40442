#include "affix/body/affine_body.hpp"

#include "affix/math/rotation.hpp"

namespace affix {

Vec12 affine_state(const Vec3& p, const Mat3& A) {
  Vec12 q;
  q << p, A.row(0).transpose(), A.row(1).transpose(), A.row(2).transpose();
  return q;
}

Vec3 state_translation(const Vec12& q) { return q.head<3>(); }

Mat3 state_matrix(const Vec12& q) {
  Mat3 A;
  A.row(0) = q.segment<3>(3).transpose();
  A.row(1) = q.segment<3>(6).transpose();
  A.row(2) = q.segment<3>(9).transpose();
  return A;
}

Mat3x12 point_jacobian(const Vec3& x_bar) {
  Mat3x12 J = Mat3x12::Zero();
  J.leftCols<3>().setIdentity();
  for (int i = 0; i < 3; ++i) J.block<1, 3>(i, 3 + 3 * i) = x_bar.transpose();
  return J;
}

Vec3 world_point(const Vec12& q, const Vec3& x_bar) {
  return Vec3(q[0] + q.segment<3>(3).dot(x_bar), q[1] + q.segment<3>(6).dot(x_bar),
              q[2] + q.segment<3>(9).dot(x_bar));
}

}  // namespace affix
