#include "affix/solvers/mabd/corotated_body.hpp"

#include <algorithm>
#include <cmath>

#include "affix/body/affine_body.hpp"
#include "affix/math/rotation.hpp"
#include "affix/solvers/mabd/psd_clamp.hpp"

namespace affix {
namespace {

/// The polar factor of a stiff body's A, which is a rotation up to a strain of order load/stiffness:
/// Newton's iteration R ← ½(R + R⁻ᵀ) from R = A converges quadratically to it (Higham 1986), in two or
/// three steps at such strains, where an SVD costs several times more. Far from a rotation (or
/// inverted) it falls back to the SVD.
/// R⁻ᵀ is R's cofactor matrix over its determinant, [r₁×r₂, r₂×r₀, r₀×r₁]/det with r_k R's columns: three
/// cross products, the determinant their first dotted with r₀. Near a rotation the error after a step is
/// about half the square of the change the step made (Higham 1986, Eq. 3.3), so a change below 10⁻⁸
/// leaves an error at round-off (5·10⁻¹⁷) and the step that would only confirm it is not taken.
constexpr int kPolarIterations = 6;
enum class PolarStep { going, converged, failed };
// Inlined by force: called from two loops, it was left out of line, and the calls cost 2 % of a step.
[[gnu::always_inline]] inline PolarStep polar_step(Mat3& R) {
  constexpr double kConverged = 1e-8;
  Mat3 cofactor;
  cofactor.col(0) = R.col(1).cross(R.col(2));
  cofactor.col(1) = R.col(2).cross(R.col(0));
  cofactor.col(2) = R.col(0).cross(R.col(1));
  const double det = R.col(0).dot(cofactor.col(0));
  if (!(det > 0.0)) return PolarStep::failed;
  // One division, not Eigen's nine of cofactor / det: the divisions' latency was most of the factor.
  const Mat3 next = 0.5 * R + (0.5 / det) * cofactor;
  const double change = (next - R).cwiseAbs().maxCoeff();
  R = next;
  return change < kConverged ? PolarStep::converged : PolarStep::going;
}

Mat3 polar_factor(const Mat3& A) {
  Mat3 R = A;
  for (int k = 0; k < kPolarIterations; ++k) {
    const PolarStep step = polar_step(R);
    if (step == PolarStep::converged) return R;
    if (step == PolarStep::failed) break;
  }
  return polar_rotation(A);
}

/// The columns of A made orthonormal in order (header, `normalize`).
Mat3 orthonormalised(const Mat3& A) {
  Mat3 R;
  R.col(0) = A.col(0).normalized();
  R.col(1) = (A.col(1) - R.col(0).dot(A.col(1)) * R.col(0)).normalized();
  R.col(2) = R.col(0).cross(R.col(1));
  return R;
}

/// The strain and its stress factor: ε and 2μ ε + λ tr(ε) I, with ε the co-rotated strain (polar) or
/// Green's (normalize).
struct Strain {
  Mat3 eps, stress;
};
Strain strain(const Mat3& A, const Mat3& R, const Lame& lame, RotationExtraction kind) {
  Strain s;
  if (kind == RotationExtraction::polar) {
    const Mat3 RtA = R.transpose() * A;
    s.eps = 0.5 * (RtA + RtA.transpose()) - Mat3::Identity();
  } else {
    s.eps = 0.5 * (A.transpose() * A - Mat3::Identity());
  }
  s.stress = 2.0 * lame.mu * s.eps + lame.lambda * s.eps.trace() * Mat3::Identity();
  return s;
}

/// The A part of a 12-vector as the 3×3 matrix whose rows it stacks, and back.
Mat3 matrix_part(const Vec12& x) { return state_matrix(x); }
void set_matrix_part(Vec12& x, const Mat3& M) {
  for (int i = 0; i < 3; ++i) x.segment<3>(3 + 3 * i) = M.row(i).transpose();
}

/// Q X with Q = diag(R, R ⊗ I₃) (Qᵀ X for Rᵀ), X a 12-vector or up to 6 columns: R mixes the p rows, and
/// the three row-blocks of A (rows of A stacked in q) with the weights of R.
template <class Block>
Block rotated(const Mat3& R, const Block& X) {
  Block Y(X.rows(), X.cols());
  Y.template topRows<3>().noalias() = R.lazyProduct(X.template topRows<3>());
  for (int i = 0; i < 3; ++i)
    Y.template middleRows<3>(3 + 3 * i) = R(i, 0) * X.template middleRows<3>(3) +
                                          R(i, 1) * X.template middleRows<3>(6) + R(i, 2) * X.template middleRows<3>(9);
  return Y;
}

}  // namespace

Lame Lame::from_young(double young, double poisson) {
  return {young / (2.0 * (1.0 + poisson)), young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson))};
}

Mat12 rest_stiffness(double volume, const Lame& lame) {
  Mat12 K = Mat12::Zero();
  const auto index = [](int i, int j) { return 3 + 3 * i + j; };  // entry (i, j) of A in q
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      K(index(i, j), index(i, j)) += lame.mu;  // μ I₉
      K(index(i, j), index(j, i)) += lame.mu;  // μ T
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) K(index(i, i), index(j, j)) += lame.lambda;  // λ vec(I) vec(I)ᵀ
  return volume * K;
}

Vec12 elastic_gradient(const Vec12& q, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind) {
  const Mat3 A = matrix_part(q);
  const Strain s = strain(A, R, lame, kind);
  const Mat3 P = kind == RotationExtraction::polar ? Mat3(R * s.stress) : Mat3(A * s.stress);
  Vec12 g = Vec12::Zero();
  set_matrix_part(g, volume * P);
  return g;
}

double elastic_energy(const Vec12& q, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind) {
  const Strain s = strain(matrix_part(q), R, lame, kind);
  const double tr = s.eps.trace();
  return volume * (lame.mu * s.eps.squaredNorm() + 0.5 * lame.lambda * tr * tr);
}

CorotatedFactor::CorotatedFactor(const Mat12& mass, const Mat12& rest_stiffness, double h)
    : matrix(mass + h * h * rest_stiffness),
      inverse(Eigen::LLT<Mat12>(matrix).solve(Mat12::Identity())),
      twist_response(inverse * twist_basis()),
      twist_compliance(twist_basis().transpose() * twist_response) {}

const Eigen::Matrix<double, 12, 3>& twist_basis() {
  static const Eigen::Matrix<double, 12, 3> U = [] {
    Eigen::Matrix<double, 12, 3> u = Eigen::Matrix<double, 12, 3>::Zero();
    for (int k = 0; k < 3; ++k) {
      Vec12 column = Vec12::Zero();
      set_matrix_part(column, skew(Vec3::Unit(k)) / std::sqrt(2.0));
      u.col(k) = column;
    }
    return u;
  }();
  return U;
}

ElasticState elastic_state(const Mat3& A, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind) {
  // τ_k = (p_i + p_j)/(s_i + s_j) = (tr P − p_k)/(tr S − s_k) with P = ψ's principal stress as a matrix,
  // a function of S and so diagonal in S's eigenvectors: Γ/V = (tr(P) I − P)(tr(S) I − S)⁻¹, no
  // eigendecomposition unless a τ is negative and must be clamped.
  // One RᵀA for Ψ and Γ: for the polar R, S = sym(RᵀA) is also I + ε of the energy and P its stress.
  const Mat3 RtA = R.transpose() * A;
  const Mat3 S = 0.5 * (RtA + RtA.transpose());
  const Mat3 I = Mat3::Identity();
  ElasticState out;
  Mat3 P;
  if (kind == RotationExtraction::polar) {
    const Mat3 eps = S - I;
    const double tr = eps.trace();
    P = 2.0 * lame.mu * eps + lame.lambda * tr * I;
    out.energy = volume * (lame.mu * eps.squaredNorm() + 0.5 * lame.lambda * tr * tr);
  } else {
    const Mat3 E = 0.5 * (S * S - I);  // Green's strain in the principal frame of S
    P = S * (2.0 * lame.mu * E + lame.lambda * E.trace() * I);
    out.energy = elastic_energy(affine_state(Vec3::Zero(), A), R, volume, lame, kind);
  }
  const Mat3 product = (P.trace() * I - P) * (S.trace() * I - S).inverse();
  const Mat3 gamma = 0.5 * volume * (product + product.transpose());
  // Nothing to clamp when Γ + εI is positive semi-definite, ε = 10⁻¹² tr|Γ|: every principal minor ≥ 0,
  // a few products where the eigensolver takes roots and trigonometry. The ε lets through the round-off
  // of a zero twist (a link pulled along its axis has τ = 0 about it, computed as ±10⁻¹⁶ of the others),
  // which clamping would change by that round-off alone; H₀ outweighs such an eigenvalue by far.
  const Mat3 shifted = gamma + 1e-12 * gamma.diagonal().cwiseAbs().sum() * Mat3::Identity();
  const auto minor = [&](int i, int j) { return shifted(i, i) * shifted(j, j) - shifted(i, j) * shifted(i, j); };
  const bool semi_definite = shifted.diagonal().minCoeff() >= 0.0 && minor(0, 1) >= 0.0 && minor(0, 2) >= 0.0 &&
                             minor(1, 2) >= 0.0 && shifted.determinant() >= 0.0;
  out.twist = semi_definite ? gamma : clamp_negative_eigenvalues(gamma);  // psd_clamp.hpp
  return out;
}

Mat3 twist_stiffness(const Mat3& A, const Mat3& R, double volume, const Lame& lame, RotationExtraction kind) {
  return elastic_state(A, R, volume, lame, kind).twist;
}

Mat3 rotation_of(const Mat3& A, RotationExtraction kind) {
  return kind == RotationExtraction::polar ? polar_factor(A) : orthonormalised(A);
}

void CoRotation::set_twist(const CorotatedFactor& factor, const Mat3& h2_gamma) {
  h2_gamma_ = h2_gamma;
  twisted_ = !h2_gamma.isZero(0.0);
  gain_ = twisted_ ? Mat3((Mat3::Identity() + h2_gamma * factor.twist_compliance).inverse() * h2_gamma) : Mat3::Zero();
}

void CoRotation::set_twist(const Mat3& h2_gamma, const Mat3& gain) {
  h2_gamma_ = h2_gamma;
  twisted_ = !h2_gamma.isZero(0.0);
  gain_ = twisted_ ? gain : Mat3::Zero();
}

template <class Block>
Block CoRotation::solved(const CorotatedFactor& factor, const Block& X) const {
  const Block Y = rotated(R_.transpose(), X);
  Block Z(X.rows(), X.cols());
  // Coefficient-wise products: with at most 6 columns, Eigen's blocked (GEMM) path, which it picks
  // for a dynamic column count, costs more in set-up than the 12×12×6 multiply-adds themselves.
  Z.noalias() = factor.inverse.lazyProduct(Y);
  if (twisted_) {
    const Eigen::Matrix<double, 3, Block::ColsAtCompileTime, 0, 3, Block::MaxColsAtCompileTime> T =
        gain_.lazyProduct(factor.twist_response.transpose().lazyProduct(Y));
    Z.noalias() -= factor.twist_response.lazyProduct(T);
  }
  return rotated(R_, Z);
}

Vec12 CoRotation::solve(const CorotatedFactor& factor, const Vec12& x) const { return solved(factor, x); }

Vec12 CoRotation::solve_local(const CorotatedFactor& factor, const Vec12& y) const {
  Vec12 z = factor.inverse.lazyProduct(y);
  if (twisted_) z.noalias() -= factor.twist_response * (gain_ * (factor.twist_response.transpose() * y));
  return z;
}

Columns12 CoRotation::solve(const CorotatedFactor& factor, const Columns12& X) const { return solved(factor, X); }

CoRotation::CoRotation(const Mat3& A, RotationExtraction kind) : R_(rotation_of(A, kind)) {}

Vec12 CoRotation::apply(const Vec12& x) const { return rotated(R_, x); }

Vec12 CoRotation::apply_transpose(const Vec12& x) const { return rotated(R_.transpose(), x); }

Mat12 CoRotation::hessian(const CorotatedFactor& factor) const {
  Mat12 Q = Mat12::Zero();
  for (int k = 0; k < 12; ++k) Q.col(k) = apply(Vec12::Unit(k));
  const Eigen::Matrix<double, 12, 3>& U = twist_basis();
  return Q * (factor.matrix + U * h2_gamma_ * U.transpose()) * Q.transpose();
}

}  // namespace affix
