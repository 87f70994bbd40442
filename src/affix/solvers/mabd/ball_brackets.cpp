#include "affix/solvers/mabd/ball_brackets.hpp"

#include "affix/body/affine_body.hpp"

namespace affix {

int BallBrackets::add(const CorotatedFactor& factor, const Vec3& P) {
  const Key key{&factor, P.x(), P.y(), P.z()};
  if (last_ >= 0 && points_[last_].factor == &factor && points_[last_].point == P) return last_;
  const auto [it, inserted] = index_.try_emplace(key, static_cast<int>(points_.size()));
  if (inserted) {
    PointBracket b;
    b.factor = &factor;
    b.point = P;
    const Mat3x12 J = point_jacobian(P);
    b.response = factor.inverse * J.transpose();
    b.twist = J * factor.twist_response;
    points_.push_back(b);
  }
  return last_ = it->second;
}

Mat3 bracket_middle(const PointBracket& a, const PointBracket& c) { return point_jacobian(a.point) * c.response; }

Mat3 ball_block(const KktBody& body, const PointBracket& a, const PointBracket& c, const Mat3& middle) {
  if (body.dense) {
    const Mat3x12 Ja = point_jacobian(a.point);
    const Eigen::Matrix<double, 12, 3> W = body.dense->factor.solve(point_jacobian(c.point).transpose());
    return Ja * W;
  }
  const CoRotation& Q = body.rotation;
  const Mat3& R = Q.rotation();
  Mat3 inner = middle;
  if (Q.twisted()) inner.noalias() -= a.twist * Q.twist_gain().lazyProduct(c.twist.transpose());
  return R.lazyProduct(inner).lazyProduct(R.transpose());
}

Vec12 ball_response(const KktBody& body, const PointBracket& a, const Vec3& f) {
  if (body.dense) return body.dense->factor.solve(point_jacobian_transpose_times(a.point, f));
  const CoRotation& Q = body.rotation;
  const Vec3 w = Q.rotation().transpose() * f;  // Rᵀ f
  Vec12 u = a.response.lazyProduct(w);         // B Rᵀ f
  if (Q.twisted()) u.noalias() -= a.factor->twist_response * (Q.twist_gain() * (a.twist.transpose() * w));
  return Q.apply(u);
}

JointRows ball_rows(const Vec3& P, double sign) { return sign * point_jacobian(P); }

}  // namespace affix
