#include "affix/energy/orthogonality_potential.hpp"

namespace affix {
namespace {

Vec3 row(const Vec12& q, int i) { return q.segment<3>(3 + 3 * i); }

Mat3 gram_minus_identity(const Vec12& q) {
  Mat3 G;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) G(i, j) = row(q, i).dot(row(q, j)) - (i == j ? 1.0 : 0.0);
  return G;
}

}  // namespace

double orthogonality_potential(const Vec12& q, double stiffness, double volume) {
  return stiffness * volume * gram_minus_identity(q).squaredNorm();
}

Vec12 orthogonality_potential_gradient(const Vec12& q, double stiffness, double volume) {
  const Mat3 G = gram_minus_identity(q);
  Vec12 g = Vec12::Zero();
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) g.segment<3>(3 + 3 * k) += 4.0 * stiffness * volume * G(k, j) * row(q, j);
  return g;
}

Mat12 orthogonality_potential_hessian(const Vec12& q, double stiffness, double volume) {
  const Mat3 G = gram_minus_identity(q);
  Mat3 sum_outer = Mat3::Zero();
  for (int j = 0; j < 3; ++j) sum_outer += row(q, j) * row(q, j).transpose();
  Mat12 H = Mat12::Zero();
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) {
      Mat3 block = G(k, l) * Mat3::Identity() + row(q, l) * row(q, k).transpose();
      if (k == l) block += sum_outer;
      H.block<3, 3>(3 + 3 * k, 3 + 3 * l) = 4.0 * stiffness * volume * block;
    }
  }
  return H;
}

}  // namespace affix
