#include "affix/solvers/ipc/joint_step.hpp"

#include <Eigen/LU>
#include <cmath>

#include "affix/solvers/ipc/joint_space.hpp"

namespace affix {

void multiply(const BlockHessian& H, const VecX& x, VecX& y) {
  y.resize(x.size());
  for (int i = 0; i < H.block_count(); ++i) y.segment<12>(12 * i).noalias() = H.diagonal(i) * x.segment<12>(12 * i);
  for (const auto& [key, block] : H.couplings()) {  // block = H(key.second, key.first)
    const int row = key.second, column = key.first;
    y.segment<12>(12 * row).noalias() += block * x.segment<12>(12 * column);
    y.segment<12>(12 * column).noalias() += block.transpose() * x.segment<12>(12 * row);
  }
}

bool TreeStep::solve(const BlockHessian& H, const VecX& g, const VecX& e, VecX& dq) {
  report_ = {};
  if (!tree_.factorize(H)) {
    report_.converged = false;
    return false;
  }
  tree_.solve(g, e, dq, &lambda_);  // feasible: C Δq = e
  bool off_tree = false;
  for (const auto& [key, block] : H.couplings())
    if (!tree_.forest().is_edge(key.first, key.second) && !block.isZero(0.0)) off_tree = true;
  if (!off_tree) return true;

  // Preconditioned conjugate gradients on the rows' null space (header). s = tree_.solve(r, 0) is −M r,
  // the preconditioned steepest-descent direction, with C s = 0; so every iterate keeps C Δq = e.
  zero_.setZero(e.size());
  multiply(H, dq, r_);
  const double scale = std::abs(dq.dot(r_));
  r_ += g;
  add_row_forces(lambda_, r_);  // = (H − H_T)Δq₀: the couplings across the forest alone
  tree_.solve(r_, zero_, s_, &lambda_);
  add_row_forces(lambda_, r_);
  d_ = s_;
  double rz = -r_.dot(s_);
  const double target = kTolerance * kTolerance * scale;
  while (!(rz <= target)) {
    if (report_.iterations == kMaxIterations || !std::isfinite(rz)) {
      report_.converged = false;
      return false;
    }
    ++report_.iterations;
    multiply(H, d_, Hd_);
    const double curvature = d_.dot(Hd_);
    if (!(curvature > 0.0)) {
      report_.converged = false;
      return false;
    }
    const double alpha = rz / curvature;
    dq += alpha * d_;
    r_ += alpha * Hd_;
    tree_.solve(r_, zero_, s_, &lambda_);
    add_row_forces(lambda_, r_);
    const double rz_next = -r_.dot(s_);
    d_ = s_ + (rz_next / rz) * d_;
    rz = rz_next;
  }
  return true;
}

void TreeStep::add_row_forces(const VecX& lambda, VecX& r) const {
  for (std::size_t k = 0; k < rows_.size(); ++k)
    for (const auto& [dof, coefficient] : rows_[k].terms) r[dof] += coefficient * lambda[k];
}

bool dense_kkt_step(const BlockHessian& H, const VecX& g, const std::vector<SparseRow>& rows, const VecX& e,
                    VecX& dq) {
  const int n = static_cast<int>(g.size()), m = static_cast<int>(rows.size());
  MatX K = MatX::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = MatX(to_sparse(H));
  VecX rhs(n + m);
  rhs.head(n) = -g;
  rhs.tail(m) = e;
  for (int r = 0; r < m; ++r)
    for (const auto& [dof, coefficient] : rows[r].terms) K(n + r, dof) = K(dof, n + r) = coefficient;
  const Eigen::PartialPivLU<MatX> lu(K);
  const VecX solution = lu.solve(rhs);
  if (!solution.allFinite() || (K * solution - rhs).norm() > 1e-8 * (rhs.norm() + K.norm() * solution.norm()))
    return false;
  dq = solution.head(n);
  return true;
}

}  // namespace affix
