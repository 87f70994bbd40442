#pragma once
// Co-rotated ABD (He 2026 §3.3–3.4): one Newton step of a stiff affine body needs no factorisation.
//
// The text lost Eq. 8–17; in our state q = (p, rows of A) (affine_body.hpp) they read:
//   Co-rotation (Eq. 10). A rotation R of the whole body maps p → Rp and A → RA, so q → Q q with
//     Q = diag(R, R ⊗ I₃)   (R ⊗ I₃ mixes the rows of A: row i of RA is Σ_k R_ik a_k).
//   Q is orthogonal, and J(x̄)Q = R J(x̄), so the generalised mass is invariant: QᵀMQ = M (Eq. 12).
//   Stiffness (Eq. 8, 11). For a stiff body A = R S with S ≈ I, and any rotation-invariant energy Ψ has
//     ∇²Ψ(q) ≈ Q K₀ Qᵀ, K₀ = ∇²Ψ at rest,
//   with an error that vanishes as S → I. Linear elasticity (Eq. 15, both Lamé parameters, the body a
//   single element with F = A over its volume V):
//     Ψ = V (μ ε:ε + ½λ (tr ε)²),  K₀ = V (μ (I₉ + T) + λ vec(I) vec(I)ᵀ) on the A block (0 on p),
//   T the transpose permutation of a 3×3 matrix: δε = sym δA gives δ(μ ε:ε) = μ(δA + δAᵀ):δA.
//   Newton system (Eq. 13, 16). Implicit Euler minimises ½‖q − q̃‖²_M + h²Ψ(q) − h²fᵀq, so
//     H = M + h²∇²Ψ ≈ Q (M + h²K₀) Qᵀ = Q H₀ Qᵀ,   H⁻¹ = Q H₀⁻¹ Qᵀ:
//   H₀ is constant for the run and factorised once; a solve is rotate, solve, rotate back (Alg. 1).
//   Gradient (Eq. 14). ∂Ψ/∂A = V P with the co-rotated stress P = R (2μ ε + λ tr(ε) I), ε = RᵀA − I
//   symmetric for the polar R.
//   Cheaper rotation (Eq. 17). The paper skips the polar decomposition and only keeps lengths when it
//   rotates a vector with A. An approximate Q must stay orthogonal here, or H⁻¹ and the dual matrix
//   G H⁻¹ Gᵀ lose their symmetry; so `normalize` orthonormalises the columns of A (Gram–Schmidt: the first
//   scaled to unit length, the second made orthogonal to it and scaled, the third their cross product),
//   which agrees with the polar factor to first order in the strain, and uses St. Venant–Kirchhoff's stress
//   P = A (2μE + λ tr(E) I), E = ½(AᵀA − I): the same K₀ at rest and rotation invariant without R.
#include <Eigen/Cholesky>

#include "affix/math/types.hpp"

namespace affix {

enum class RotationExtraction { polar, normalize };

/// The Lamé parameters of Young's modulus E (Pa) and Poisson's ratio ν ∈ (−1, 0.5).
struct Lame {
  double mu = 0.0, lambda = 0.0;
  static Lame from_young(double young, double poisson);
};

/// K₀: the rest Hessian of the body's linear elasticity (header), 12×12.
Mat12 rest_stiffness(double volume, const Lame& lame);

/// ∇Ψ at q (header), 12-vector with a zero p part.
Vec12 elastic_gradient(const Vec12& q, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind);
/// Ψ at q: V (μ ε:ε + ½λ (tr ε)²) with ε = RᵀA − I (polar) or E = ½(AᵀA − I) (normalize).
double elastic_energy(const Vec12& q, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind);

/// The constant part of a body's Newton matrix, H₀ = M + h²K₀, factorised once (shared by every body
/// with the same mass matrix and material). Its inverse is kept whole: H₀ is small, symmetric positive
/// definite and well conditioned (M dominates), and a fixed-size 12×12 product is several times faster
/// than two triangular solves, which dominated the step.
struct CorotatedFactor {
  Mat12 matrix;
  Mat12 inverse;
  CorotatedFactor(const Mat12& mass, const Mat12& rest_stiffness, double h);
};

/// A body's co-rotation at one Newton iterate: Q of the header, applied without forming it.
class CoRotation {
 public:
  CoRotation(const Mat3& A, RotationExtraction kind);
  const Mat3& rotation() const { return R_; }  ///< the polar factor, or A orthonormalised
  /// Q x and Qᵀ x for a 12-vector or a 12×k block (columns).
  Vec12 apply(const Vec12& x) const;
  Vec12 apply_transpose(const Vec12& x) const;
  /// H⁻¹ x = Q H₀⁻¹ Qᵀ x (He 2026 Alg. 1).
  Vec12 solve(const CorotatedFactor& factor, const Vec12& x) const { return apply(factor.inverse * apply_transpose(x)); }
  /// H = Q H₀ Qᵀ in full (for structured solvers that accumulate articulated matrices).
  Mat12 hessian(const CorotatedFactor& factor) const;

 private:
  Mat3 R_;
};

}  // namespace affix
