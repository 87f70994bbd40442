#include "affix/energy/joint_penalty.hpp"

#include <cassert>
#include <cmath>

#include "affix/distance/point_point.hpp"
#include "affix/math/rotation.hpp"

namespace affix {

namespace {

using Mat6x12 = Eigen::Matrix<double, 6, 12>;
using Mat9 = Eigen::Matrix<double, 9, 9>;
using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat9x12 = Eigen::Matrix<double, 9, 12>;

/// Edge vectors y = S x: a = x₀ − x₁, then x_k − x₁ for each k in `others`; ∇ₓ = Sᵀ∇ᵧ, ∇²ₓ = Sᵀ∇²ᵧS.
template <int Rows>
Eigen::Matrix<double, Rows, 12> edge_selection(const int (&others)[Rows / 3 - 1]) {
  Eigen::Matrix<double, Rows, 12> S = Eigen::Matrix<double, Rows, 12>::Zero();
  S.template block<3, 3>(0, 0).setIdentity();
  S.template block<3, 3>(0, 3) = -Mat3::Identity();
  for (int i = 0; i < Rows / 3 - 1; ++i) {
    S.template block<3, 3>(3 * (i + 1), 3 * others[i]).setIdentity();
    S.template block<3, 3>(3 * (i + 1), 3) = -Mat3::Identity();
  }
  return S;
}

// distance: with s = ‖x₀ − x₁‖², d = √s and c = d − l,
//   P = ½k(d − l)²,  ∇P = k c ∇d = k (1 − l/d) ∇s/2,
//   ∇²P = k (∇d∇dᵀ + c∇²d) = k [(l/d) ∇s∇sᵀ/(4s) + (1 − l/d) ∇²s/2]   (∇d = ∇s/(2d),
//   ∇²d = ∇²s/(2d) − ∇s∇sᵀ/(4d³)). For l = 0 this is ½ks, a polynomial, smooth also at d = 0.
StencilDerivatives distance_penalty(const Vec12& x, double l, double k) {
  const Vec3 p0 = x.segment<3>(0), p1 = x.segment<3>(3);
  const double s = point_point_distance(p0, p1);
  const Vec6 grad_s = point_point_distance_gradient(p0, p1);
  const Mat6 hess_s = point_point_distance_hessian(p0, p1);
  StencilDerivatives out;
  const double d = std::sqrt(s);
  const double c = d - l;
  out.value = 0.5 * k * c * c;
  if (l == 0.0) {
    out.gradient.head<6>() = 0.5 * k * grad_s;
    out.hessian.topLeftCorner<6, 6>() = 0.5 * k * hess_s;
    return out;
  }
  assert(d > 0.0);  // ‖x₀ − x₁‖ has no gradient at x₀ = x₁
  const double ratio = l / d;
  out.gradient.head<6>() = 0.5 * k * (1.0 - ratio) * grad_s;
  out.hessian.topLeftCorner<6, 6>() =
      k * ((ratio / (4.0 * s)) * grad_s * grad_s.transpose() + 0.5 * (1.0 - ratio) * hess_s);
  return out;
}

// line: with a = x₀ − x₁, b = x₂ − x₁, w = a × b and f = ‖w‖² (so c² = f/L²), P = k f/(2L²).
//   ∂w/∂a = −[b]ₓ, ∂w/∂b = [a]ₓ, so ∇ₐf = 2(−[b]ₓ)ᵀw = 2 b × w, ∇_b f = 2[a]ₓᵀw = 2 w × a.
//   ∇²f = 2JᵀJ + 2 Σᵢ wᵢ∇²wᵢ with J = [−[b]ₓ  [a]ₓ]; w is bilinear and v·(a × b) = −aᵀ[v]ₓb, so
//   Σᵢ wᵢ ∂²wᵢ/∂a∂b = −[w]ₓ (the diagonal blocks vanish). Hence
//   ∇²ₐₐf = 2[b]ₓᵀ[b]ₓ, ∇²_bb f = 2[a]ₓᵀ[a]ₓ, ∇²ₐ_b f = −2[b]ₓᵀ[a]ₓ − 2[w]ₓ.
StencilDerivatives line_penalty(const Vec12& x, double L, double k) {
  const Vec3 a = x.segment<3>(0) - x.segment<3>(3), b = x.segment<3>(6) - x.segment<3>(3);
  const Vec3 w = a.cross(b);
  const Mat3 Ja = -skew(b), Jb = skew(a);
  Vec6 grad_f;
  grad_f << 2.0 * b.cross(w), 2.0 * w.cross(a);
  Mat6 hess_f;
  const Mat3 ab = 2.0 * Ja.transpose() * Jb - 2.0 * skew(w);
  hess_f << 2.0 * Ja.transpose() * Ja, ab,  //
      ab.transpose(), 2.0 * Jb.transpose() * Jb;
  const Mat6x12 S = edge_selection<6>({2});
  const double scale = k / (2.0 * L * L);
  StencilDerivatives out;
  out.value = scale * w.squaredNorm();
  out.gradient = scale * S.transpose() * grad_f;
  out.hessian = scale * S.transpose() * hess_f * S;
  return out;
}

// plane: with a = x₀ − x₁, b = x₂ − x₁, e = x₃ − x₁ and the triple product s = a · (b × e), c = s/L²
// and P = k s²/(2L⁴), ∇P = (k/L⁴) s ∇s, ∇²P = (k/L⁴)(∇s∇sᵀ + s∇²s). s is trilinear:
//   ∇ₐs = b × e, ∇_b s = e × a, ∇ₑs = a × b;
//   ∇²ₐ_b s = −[e]ₓ (s = −aᵀ[e]ₓb), ∇²ₐₑs = [b]ₓ (s = aᵀ[b]ₓe), ∇²_bₑs = −[a]ₓ (s = −bᵀ[a]ₓe),
//   and zero diagonal blocks.
StencilDerivatives plane_penalty(const Vec12& x, double L, double k) {
  const Vec3 x1 = x.segment<3>(3);
  const Vec3 a = x.segment<3>(0) - x1, b = x.segment<3>(6) - x1, e = x.segment<3>(9) - x1;
  const double s = a.dot(b.cross(e));
  Vec9 grad_s;
  grad_s << b.cross(e), e.cross(a), a.cross(b);
  const Mat3 Z = Mat3::Zero(), ab = -skew(e), ae = skew(b), be = -skew(a);
  Mat9 hess_s;
  hess_s << Z, ab, ae,  //
      ab.transpose(), Z, be,  //
      ae.transpose(), be.transpose(), Z;
  const Mat9x12 S = edge_selection<9>({2, 3});
  const double scale = k / (L * L * L * L);
  StencilDerivatives out;
  out.value = 0.5 * scale * s * s;
  out.gradient = scale * s * (S.transpose() * grad_s);
  out.hessian = scale * S.transpose() * (grad_s * grad_s.transpose() + s * hess_s) * S;
  return out;
}

}  // namespace

double penalty_constraint(PenaltyKind kind, const Vec12& x, double length) {
  const Vec3 x1 = x.segment<3>(3);
  const Vec3 a = x.segment<3>(0) - x1;
  switch (kind) {
    case PenaltyKind::distance:
      return a.norm() - length;
    case PenaltyKind::line:
      return a.cross(x.segment<3>(6) - x1).norm() / length;
    case PenaltyKind::plane:
      return a.dot((x.segment<3>(6) - x1).cross(x.segment<3>(9) - x1)) / (length * length);
  }
  assert(false);
  return 0.0;
}

StencilDerivatives joint_penalty(PenaltyKind kind, const Vec12& x, double length, double stiffness) {
  switch (kind) {
    case PenaltyKind::distance:
      return distance_penalty(x, length, stiffness);
    case PenaltyKind::line:
      assert(length > 0.0);
      return line_penalty(x, length, stiffness);
    case PenaltyKind::plane:
      assert(length > 0.0);
      return plane_penalty(x, length, stiffness);
  }
  assert(false);
  return {};
}

}  // namespace affix
