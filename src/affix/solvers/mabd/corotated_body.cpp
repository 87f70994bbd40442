#include "affix/solvers/mabd/corotated_body.hpp"

#include "affix/body/affine_body.hpp"
#include "affix/math/rotation.hpp"

namespace affix {
namespace {

/// The polar factor of a stiff body's A, which is a rotation up to a strain of order load/stiffness:
/// Newton's iteration R ← ½(R + R⁻ᵀ) from R = A converges quadratically to it (Higham 1986), in two or
/// three steps at such strains, where an SVD costs several times more. Far from a rotation (or
/// inverted) it falls back to the SVD.
Mat3 polar_factor(const Mat3& A) {
  constexpr int kMaxIterations = 6;
  constexpr double kConverged = 1e-15;
  Mat3 R = A;
  for (int k = 0; k < kMaxIterations; ++k) {
    const double det = R.determinant();
    if (!(det > 0.0)) break;
    const Mat3 next = 0.5 * (R + R.inverse().transpose());
    const double change = (next - R).cwiseAbs().maxCoeff();
    R = next;
    if (change < kConverged) return R;
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
    : matrix(mass + h * h * rest_stiffness), inverse(Eigen::LLT<Mat12>(matrix).solve(Mat12::Identity())) {}

CoRotation::CoRotation(const Mat3& A, RotationExtraction kind)
    : R_(kind == RotationExtraction::polar ? polar_factor(A) : orthonormalised(A)) {}

Vec12 CoRotation::apply(const Vec12& x) const {
  Vec12 y;
  y.head<3>() = R_ * x.head<3>();
  set_matrix_part(y, R_ * matrix_part(x));
  return y;
}

Vec12 CoRotation::apply_transpose(const Vec12& x) const {
  Vec12 y;
  y.head<3>() = R_.transpose() * x.head<3>();
  set_matrix_part(y, R_.transpose() * matrix_part(x));
  return y;
}

Mat12 CoRotation::hessian(const CorotatedFactor& factor) const {
  Mat12 Q = Mat12::Zero();
  for (int k = 0; k < 12; ++k) Q.col(k) = apply(Vec12::Unit(k));
  return Q * factor.matrix * Q.transpose();
}

}  // namespace affix
