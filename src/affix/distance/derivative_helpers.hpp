#pragma once
// Building blocks shared by the distance derivatives (internal to the distance module).
//
// Every non-trivial squared distance here is a ratio of polynomials in a few edge vectors, d = N / D:
//   point-line   N = |r × e|²,           D = |e|²
//   point-plane  N = (w · (a × b))²,     D = |a × b|²
//   line-line    N = (w · (a × b))²,     D = |a × b|²
// The edge vectors are fixed linear combinations of the stacked vertex positions x (y = S x, with S made
// of ±I blocks), so ∇ₓd = Sᵀ ∇ᵧd and ∇²ₓd = Sᵀ ∇²ᵧd S. The pieces:
//
// Quotient rule, written so that the Hessian stays symmetric by construction:
//   ∇d = (∇N − d ∇D) / D,   ∇²d = (∇²N − d ∇²D − ∇d ∇Dᵀ − ∇D ∇dᵀ) / D.
//
// Cross-product squared norm f(a, b) = |a × b|² = |a|²|b|² − (a·b)² (Lagrange's identity):
//   ∇ₐf = 2 b × (a × b),  ∇_b f = 2 (a × b) × a,
//   ∇²ₐₐf = 2(|b|² I − b bᵀ),  ∇²_bb f = 2(|a|² I − a aᵀ),  ∇²ₐ_b f = 4 a bᵀ − 2 b aᵀ − 2 (a·b) I.
//
// Triple product s(w, a, b) = w · (a × b) (trilinear, so its Hessian has zero diagonal blocks):
//   ∇_w s = a × b,  ∇ₐs = b × w,  ∇_b s = w × a,
//   ∇²_wa s = −[b]ₓ,  ∇²_wb s = [a]ₓ,  ∇²ₐ_b s = −[w]ₓ  (and the transposes below the diagonal).
//
// Squared distance of the offset w from the plane spanned by a and b (point-plane and line-line):
//   q(w, a, b) = s² / |a × b|²,  N = s², ∇N = 2s∇s, ∇²N = 2∇s∇sᵀ + 2s∇²s, D = |a × b|² (no w).
#include <array>

#include "affix/distance/stencil_types.hpp"
#include "affix/math/rotation.hpp"

namespace affix::distance_detail {

template <int N>
using Vec = Eigen::Matrix<double, N, 1>;
template <int N>
using Mat = Eigen::Matrix<double, N, N>;

/// ∇(N/D) from N, D and their gradients.
template <int K>
Vec<K> quotient_gradient(double n, const Vec<K>& grad_n, double d, const Vec<K>& grad_d) {
  return (grad_n - (n / d) * grad_d) / d;
}

/// ∇²(N/D) from N, D and their first and second derivatives.
template <int K>
Mat<K> quotient_hessian(double n, const Vec<K>& grad_n, const Mat<K>& hess_n, double d,
                        const Vec<K>& grad_d, const Mat<K>& hess_d) {
  const double q = n / d;
  const Vec<K> grad_q = (grad_n - q * grad_d) / d;
  return (hess_n - q * hess_d - grad_q * grad_d.transpose() - grad_d * grad_q.transpose()) / d;
}

/// ∇|a × b|² in the stacked variables (a, b).
inline Vec6 cross_squarednorm_gradient(const Vec3& a, const Vec3& b) {
  const Vec3 c = a.cross(b);
  Vec6 g;
  g << 2.0 * b.cross(c), 2.0 * c.cross(a);
  return g;
}

/// ∇²|a × b|² in the stacked variables (a, b).
inline Mat6 cross_squarednorm_hessian(const Vec3& a, const Vec3& b) {
  const Mat3 I = Mat3::Identity();
  const Mat3 ab = 4.0 * a * b.transpose() - 2.0 * b * a.transpose() - 2.0 * a.dot(b) * I;
  Mat6 H;
  H << 2.0 * (b.squaredNorm() * I - b * b.transpose()), ab,  //
      ab.transpose(), 2.0 * (a.squaredNorm() * I - a * a.transpose());
  return H;
}

/// ∇(w · (a × b)) in the stacked variables (w, a, b).
inline Vec9 triple_product_gradient(const Vec3& w, const Vec3& a, const Vec3& b) {
  Vec9 g;
  g << a.cross(b), b.cross(w), w.cross(a);
  return g;
}

/// ∇²(w · (a × b)) in the stacked variables (w, a, b).
inline Mat9 triple_product_hessian(const Vec3& w, const Vec3& a, const Vec3& b) {
  const Mat3 Z = Mat3::Zero();
  const Mat3 wa = -skew(b), wb = skew(a), ab = -skew(w);
  Mat9 H;
  H << Z, wa, wb,  //
      wa.transpose(), Z, ab,  //
      wb.transpose(), ab.transpose(), Z;
  return H;
}

/// w · (a × b), evaluated as (w − (w·a / a·a) a) · (a × b): equal in exact arithmetic, but the rounding
/// error of a × b along a (about ε|a||b|) no longer multiplies w's component along a, which can be much
/// longer than the distance (nearly parallel lines, thin triangles). Requires a ≠ 0.
inline double reduced_triple_product(const Vec3& w, const Vec3& a, const Vec3& b) {
  return (w - (w.dot(a) / a.squaredNorm()) * a).dot(a.cross(b));
}

/// ∇[(w · (a × b))² / |a × b|²] in (w, a, b). Requires a × b ≠ 0.
inline Vec9 offset_plane_distance_gradient(const Vec3& w, const Vec3& a, const Vec3& b) {
  const Vec3 n = a.cross(b);
  const double s = reduced_triple_product(w, a, b);
  Vec9 grad_d = Vec9::Zero();
  grad_d.tail<6>() = cross_squarednorm_gradient(a, b);
  return quotient_gradient<9>(s * s, 2.0 * s * triple_product_gradient(w, a, b), n.squaredNorm(), grad_d);
}

/// ∇²[(w · (a × b))² / |a × b|²] in (w, a, b). Requires a × b ≠ 0.
inline Mat9 offset_plane_distance_hessian(const Vec3& w, const Vec3& a, const Vec3& b) {
  const Vec3 n = a.cross(b);
  const double s = reduced_triple_product(w, a, b);
  const Vec9 grad_s = triple_product_gradient(w, a, b);
  const Mat9 hess_n = 2.0 * grad_s * grad_s.transpose() + 2.0 * s * triple_product_hessian(w, a, b);
  Vec9 grad_d = Vec9::Zero();
  grad_d.tail<6>() = cross_squarednorm_gradient(a, b);
  Mat9 hess_d = Mat9::Zero();
  hess_d.bottomRightCorner<6, 6>() = cross_squarednorm_hessian(a, b);
  return quotient_hessian<9>(s * s, 2.0 * s * grad_s, hess_n, n.squaredNorm(), grad_d, hess_d);
}

/// A selection matrix row block: the 3×3N block row that picks Σ coefficient_k · x_k.
template <int NV>
Eigen::Matrix<double, 3, 3 * NV> combination(const std::array<double, NV>& coefficients) {
  Eigen::Matrix<double, 3, 3 * NV> S = Eigen::Matrix<double, 3, 3 * NV>::Zero();
  for (int k = 0; k < NV; ++k) S.template block<3, 3>(0, 3 * k) = coefficients[k] * Mat3::Identity();
  return S;
}

/// Adds the gradient of a sub-stencil on vertices `vertices` (in its own order) into a full stencil.
template <int NFull, int NLocal>
Vec<3 * NFull> scatter_gradient(const Vec<3 * NLocal>& local, const std::array<int, NLocal>& vertices) {
  Vec<3 * NFull> full = Vec<3 * NFull>::Zero();
  for (int i = 0; i < NLocal; ++i) full.template segment<3>(3 * vertices[i]) += local.template segment<3>(3 * i);
  return full;
}

/// Adds the Hessian of a sub-stencil on vertices `vertices` (in its own order) into a full stencil.
template <int NFull, int NLocal>
Mat<3 * NFull> scatter_hessian(const Mat<3 * NLocal>& local, const std::array<int, NLocal>& vertices) {
  Mat<3 * NFull> full = Mat<3 * NFull>::Zero();
  for (int i = 0; i < NLocal; ++i) {
    for (int j = 0; j < NLocal; ++j) {
      full.template block<3, 3>(3 * vertices[i], 3 * vertices[j]) += local.template block<3, 3>(3 * i, 3 * j);
    }
  }
  return full;
}

}  // namespace affix::distance_detail
