#include "affix/solvers/ipc/joint_step.hpp"

#include <Eigen/LU>
#include <algorithm>
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

// Bodies linked by a forest edge or a non-zero coupling of H share an island: H, the tree solve and
// the rows are block-diagonal across islands, so the iteration below is one conjugate-gradient
// iteration per island, run side by side.
void TreeStep::label_islands(const BlockHessian& H) {
  const int n = H.block_count();
  island_of_.resize(n);
  for (int i = 0; i < n; ++i) island_of_[i] = i;
  const auto root = [&](int i) {
    while (island_of_[i] != i) i = island_of_[i] = island_of_[island_of_[i]];
    return i;
  };
  const auto join = [&](int a, int b) {
    a = root(a), b = root(b);
    if (a != b) island_of_[std::max(a, b)] = std::min(a, b);
  };
  for (int i = 0; i < n; ++i)
    if (tree_.forest().parent(i) >= 0) join(i, tree_.forest().parent(i));
  for (const auto& [key, block] : H.couplings())
    if (!block.isZero(0.0)) join(key.first, key.second);
  island_index_.resize(n);
  for (int i = 0; i < n; ++i) island_index_[i] = root(i);
  island_count_ = 0;
  for (int i = 0; i < n; ++i) {  // a root is its island's smallest body: numbered before its members
    const int r = island_index_[i];
    island_of_[i] = r == i ? island_count_++ : island_of_[r];
  }
}

void TreeStep::island_dots(const VecX& a, const VecX& b, std::vector<double>& out) const {
  out.assign(island_count_, 0.0);
  for (int i = 0; i < static_cast<int>(island_of_.size()); ++i)
    out[island_of_[i]] += a.segment<12>(12 * i).dot(b.segment<12>(12 * i));
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

  // Preconditioned conjugate gradients on the rows' null space (header), island by island: each island
  // has its own step lengths and its own stopping test, relative to its own energy scale, so islands
  // without couplings across their trees stop at once and the others take the iterations their own
  // couplings need, not the sum over the scene. s = tree_.solve(r, 0) is −M r, the preconditioned
  // steepest-descent direction, with C s = 0; so every iterate keeps C Δq = e.
  label_islands(H);
  const int n = H.block_count();
  zero_.setZero(e.size());
  multiply(H, dq, r_);
  island_dots(dq, r_, scale_);
  r_ += g;
  add_row_forces(lambda_, r_);  // = (H − H_T)Δq₀: the couplings across the forest alone
  tree_.solve(r_, zero_, s_, &lambda_);
  add_row_forces(lambda_, r_);
  d_ = s_;
  island_dots(r_, s_, rz_);
  std::vector<char> active(island_count_, 0);
  bool any = false;
  for (int k = 0; k < island_count_; ++k) {
    rz_[k] = -rz_[k];
    active[k] = !(rz_[k] <= kTolerance * kTolerance * std::abs(scale_[k]));
    any = any || active[k];
  }
  while (any) {
    for (int k = 0; k < island_count_; ++k) {
      if (active[k] && (report_.iterations == kMaxIterations || !std::isfinite(rz_[k]))) {
        report_.converged = false;
        return false;
      }
    }
    ++report_.iterations;
    multiply(H, d_, Hd_);
    island_dots(d_, Hd_, curvature_);
    for (int k = 0; k < island_count_; ++k) {
      if (active[k] && !(curvature_[k] > 0.0)) {
        report_.converged = false;
        return false;
      }
    }
    for (int i = 0; i < n; ++i) {
      const int k = island_of_[i];
      if (!active[k]) continue;
      const double alpha = rz_[k] / curvature_[k];
      dq.segment<12>(12 * i) += alpha * d_.segment<12>(12 * i);
      r_.segment<12>(12 * i) += alpha * Hd_.segment<12>(12 * i);
    }
    tree_.solve(r_, zero_, s_, &lambda_);
    add_row_forces(lambda_, r_);
    island_dots(r_, s_, rz_next_);
    any = false;
    for (int i = 0; i < n; ++i) {
      const int k = island_of_[i];
      if (active[k]) d_.segment<12>(12 * i) = s_.segment<12>(12 * i) + (-rz_next_[k] / rz_[k]) * d_.segment<12>(12 * i);
      else d_.segment<12>(12 * i).setZero();  // a stopped island takes no further step
    }
    for (int k = 0; k < island_count_; ++k) {
      if (!active[k]) continue;
      rz_[k] = -rz_next_[k];
      active[k] = !(rz_[k] <= kTolerance * kTolerance * std::abs(scale_[k]));
      any = any || active[k];
    }
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
