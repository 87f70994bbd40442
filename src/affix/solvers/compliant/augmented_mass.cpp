#include "affix/solvers/compliant/augmented_mass.hpp"

#include <Eigen/Dense>

namespace affix {
namespace {

/// The non-zero entries of a joint-local 12-vector on the unknowns: global index and value.
struct SparseVector {
  std::array<int, 12> index{};
  std::array<double, 12> value{};
  int size = 0;
};

SparseVector place(const Vec12& x, const std::array<int, 2>& body, double scale) {
  SparseVector out;
  for (int side = 0; side < 2; ++side) {
    if (body[side] < 0) continue;
    for (int k = 0; k < 6; ++k)
      if (x[6 * side + k] != 0.0) {
        out.index[out.size] = 6 * body[side] + k;
        out.value[out.size++] = scale * x[6 * side + k];
      }
  }
  return out;
}

/// inv ← (A + u vᵀ)⁻¹ for inv = A⁻¹ (Sherman–Morrison), u and v sparse.
void sherman_morrison(MatX& inv, const SparseVector& u, const SparseVector& v, VecX& inv_u, VecX& vt_inv) {
  if (u.size == 0 || v.size == 0) return;
  inv_u.setZero();
  vt_inv.setZero();
  for (int k = 0; k < u.size; ++k) inv_u += u.value[k] * inv.col(u.index[k]);
  for (int k = 0; k < v.size; ++k) vt_inv += v.value[k] * inv.row(v.index[k]).transpose();
  double denominator = 1.0;
  for (int k = 0; k < v.size; ++k) denominator += v.value[k] * inv_u[v.index[k]];
  inv.noalias() -= (inv_u / denominator) * vt_inv.transpose();
}

}  // namespace

MatX augmented_inverse_full_rank(const std::vector<Mat6>& M, const std::vector<PlacedStiffness>& K, double h) {
  const int n = 6 * static_cast<int>(M.size());
  MatX A = MatX::Zero(n, n);
  for (std::size_t b = 0; b < M.size(); ++b) A.block<6, 6>(6 * b, 6 * b) = M[b];
  for (const PlacedStiffness& k : K) {
    const Mat12 sym = 0.5 * (k.K + k.K.transpose());
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t)
        if (k.body[s] >= 0 && k.body[t] >= 0)
          A.block<6, 6>(6 * k.body[s], 6 * k.body[t]) -= h * h * sym.block<6, 6>(6 * s, 6 * t);
  }
  return A.ldlt().solve(MatX::Identity(n, n));
}

void augmented_inverse_low_rank(const std::vector<Mat6>& Minv, const std::vector<PlacedTerm>& terms, double h,
                                MatX& out) {
  const int n = 6 * static_cast<int>(Minv.size());
  out.setZero(n, n);
  for (std::size_t b = 0; b < Minv.size(); ++b) out.block<6, 6>(6 * b, 6 * b) = Minv[b];
  VecX inv_u(n), vt_inv(n);
  const double scale = -0.5 * h * h;  // M̃ = M − h²·½(a bᵀ + b aᵀ), summed over the terms
  for (const PlacedTerm& t : terms) {
    sherman_morrison(out, place(t.term.a, t.body, scale), place(t.term.b, t.body, 1.0), inv_u, vt_inv);
    sherman_morrison(out, place(t.term.b, t.body, scale), place(t.term.a, t.body, 1.0), inv_u, vt_inv);
  }
}

}  // namespace affix
