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
//
// Twist stiffness (not in the paper; why it is needed). Q K₀ Qᵀ is the exact Hessian of Ψ except in the
// three "twist" directions δA = R ŵ S, where it is 0 (K₀ has no stiffness against rotation) and the true
// Hessian is not: moving A along a straight line that rotates it stretches a stressed body further, with
// curvature of the order of the stress × volume, independent of E. In the principal frame S = V diag(s) Vᵀ
// (Smith et al. 2019, "Analytic eigensystems for isotropic distortion energies") the Hessian of an
// isotropic ψ(s) has twist eigenvalues τ_k = (p_i + p_j)/(s_i + s_j), p = ∂ψ/∂s, (i, j, k) cyclic, on
// the eigenvectors U(e_i e_jᵀ − e_j e_iᵀ)Vᵀ/√2, while its flip and scaling modes are those of Q K₀ Qᵀ
// (for ψ = μ‖s − 1‖² + ½λ(Σ(s − 1))², ψ's Hessian in s is constant and the flips have 2μ). Hence, exactly,
//   ∇²Ψ = Q (K₀ + U₀ Γ U₀ᵀ) Qᵀ,  Γ = V · V diag(τ) Vᵀ,  U₀ = [vec ê_x, vec ê_y, vec ê_z]/√2 (12×3),
// V the volume. Γ matters when h²Γ outweighs the body's rotational inertia: a thin link under the
// tension of a long chain at h = 10⁻² has h²Γ ≈ h² T ℓ about 10³ × m r², and Newton without it steps
// rotations as if they cost only inertia, which stretches the links more each step until they blow up
// (the instability Andrews 2017 §3 describes for stiff constraints without geometric stiffness). Compressive
// twists (τ < 0) are clamped to 0, so H stays positive definite. The solver reads Γ at the last step's
// state rather than at the iterate (MabdSimulator::update_twist says why). Since Γ is 3×3, H⁻¹ keeps H₀⁻¹
// and adds a rank-3 Woodbury term with the constants Z = H₀⁻¹U₀, W = U₀ᵀZ of each factor:
//   (H₀ + h²U₀ΓU₀ᵀ)⁻¹ = H₀⁻¹ − Z K Zᵀ,  K = (I + h²Γ W)⁻¹ h²Γ   (3×3 per body and iteration).
// `normalize` uses St. Venant–Kirchhoff's p_i = s_i(2μE_i + λ ΣE), E_i = ½(s_i² − 1), in the frame
// sym(RᵀA) of its Gram–Schmidt R, exact to first order in the strain.
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
  Eigen::Matrix<double, 12, 3> twist_response;  ///< Z = H₀⁻¹U₀ (header)
  Mat3 twist_compliance;                        ///< W = U₀ᵀ H₀⁻¹ U₀
  CorotatedFactor(const Mat12& mass, const Mat12& rest_stiffness, double h);
};

/// U₀: the twist directions in the body frame, unit vectors vec(ê_k)/√2 (header).
const Eigen::Matrix<double, 12, 3>& twist_basis();

/// Γ of the header: the body's twist stiffness at A with rotation R, in body axial coordinates, ≥ 0.
Mat3 twist_stiffness(const Mat3& A, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind);

/// Ψ and Γ at A together, from one RᵀA (the end of a step reads both for every body).
struct ElasticState {
  double energy = 0.0;  ///< Ψ, as elastic_energy
  Mat3 twist;           ///< Γ, as twist_stiffness
};
ElasticState elastic_state(const Mat3& A, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind);

/// The rotation CoRotation reads from A (the polar factor, or A orthonormalised), without the rest of it.
Mat3 rotation_of(const Mat3& A, RotationExtraction kind);
/// (Several bodies' at once, with the polar rotation: polar_factors4 of body_lanes.hpp.)

/// Up to 6 columns of 12 DOFs (a joint side's rows transposed, or their responses H⁻¹Gᵀ): fixed
/// capacity, so no solve allocates.
using Columns12 = Eigen::Matrix<double, 12, Eigen::Dynamic, Eigen::ColMajor, 12, 6>;

/// A body's co-rotation at one Newton iterate: Q of the header, applied without forming it.
class CoRotation {
 public:
  CoRotation(const Mat3& A, RotationExtraction kind);
  /// From a rotation already read from A (rotations_of).
  explicit CoRotation(const Mat3& R) : R_(R) {}
  /// From a rotation and a twist with its K computed already (twist_gains4 of body_lanes.hpp): the
  /// same as CoRotation(R) then set_twist(h2_gamma, gain), each member written once (a step builds
  /// one per body and iteration).
  CoRotation(const Mat3& R, const Mat3& h2_gamma, const Mat3& gain)
      : R_(R), twisted_(!h2_gamma.isZero(0.0)), h2_gamma_(h2_gamma) {
    gain_ = twisted_ ? gain : Mat3::Zero();
  }
  const Mat3& rotation() const { return R_; }  ///< the polar factor, or A orthonormalised
  /// Adds h²Γ (twist_stiffness × h²) to the Newton matrix: H = Q (H₀ + U₀ h²Γ U₀ᵀ) Qᵀ (header).
  void set_twist(const CorotatedFactor& factor, const Mat3& h2_gamma);
  /// The same with its K computed already (twist_gains4 of body_lanes.hpp).
  void set_twist(const Mat3& h2_gamma, const Mat3& gain);
  /// K = (I + h²Γ W)⁻¹ h²Γ of H⁻¹ = Q (H₀⁻¹ − Z K Zᵀ) Qᵀ (header), and whether it is not 0.
  const Mat3& twist_gain() const { return gain_; }
  bool twisted() const { return twisted_; }
  /// Q x and Qᵀ x for a 12-vector or a 12×k block (columns).
  Vec12 apply(const Vec12& x) const;
  Vec12 apply_transpose(const Vec12& x) const;
  /// H⁻¹ x = Q (H₀⁻¹ − Z K Zᵀ) Qᵀ x (He 2026 Alg. 1, with the twist term of the header).
  Vec12 solve(const CorotatedFactor& factor, const Vec12& x) const;
  /// (H₀⁻¹ − Z K Zᵀ) y: H⁻¹'s middle, for a y already rotated into the body's frame (y = Qᵀx).
  Vec12 solve_local(const CorotatedFactor& factor, const Vec12& y) const;
  /// H⁻¹ X for up to 6 columns at once (one product with H₀⁻¹ for all of them).
  Columns12 solve(const CorotatedFactor& factor, const Columns12& X) const;
  /// H = Q (H₀ + U₀ h²Γ U₀ᵀ) Qᵀ in full (for structured solvers that accumulate articulated matrices).
  Mat12 hessian(const CorotatedFactor& factor) const;

 private:
  /// Q (H₀⁻¹ − Z K Zᵀ) Qᵀ X for either kind of X.
  template <class Block>
  Block solved(const CorotatedFactor& factor, const Block& X) const;

  // What a solve reads first and together (R, K, whether twisted), h²Γ last: the ball chain's back
  // substitution then reads a KktBody's first three cache lines of six (kkt_system.hpp). h²Γ is kept
  // although K determines it (h²Γ = K (I − W K)⁻¹): read back so, a stiff twist (h²Γ W ≫ I, a thin link
  // under a long chain's tension) lost up to 4·10⁻⁶ of its value, measured; the tree solve reads it.
  Mat3 R_;
  Mat3 gain_ = Mat3::Zero();      // K = (I + h²Γ W)⁻¹ h²Γ
  bool twisted_ = false;          // whether h²Γ ≠ 0
  Mat3 h2_gamma_ = Mat3::Zero();  // h²Γ
};

}  // namespace affix
