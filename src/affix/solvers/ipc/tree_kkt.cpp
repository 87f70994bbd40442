#include "affix/solvers/ipc/tree_kkt.hpp"

#include <cassert>

#include "affix/solvers/linear/spd_factor.hpp"

namespace affix {

TreeKkt::TreeKkt(const JointForest& forest, const DofLayout& layout, const std::vector<SparseRow>& rows)
    : forest_(forest), dofs_(layout.total()) {
  assert(forest_.is_forest());
  const int n = forest_.body_count();
  nodes_.resize(n);
  articulated_.resize(n);
  gradient_.resize(n);
  u_.resize(n);
  for (int b = 0; b < n; ++b) {
    assert(layout.size(b) == kAffineDofs && layout.offset(b) == kAffineDofs * b);
    Node& node = nodes_[b];
    const std::vector<int>& owned = forest_.rows_of(b);
    const int m = static_cast<int>(owned.size()), p = forest_.parent(b);
    node.Gc.setZero(m, 12);
    node.Gp.setZero(m, 12);
    for (int k = 0; k < m; ++k) {
      for (const auto& [dof, coefficient] : rows[owned[k]].terms) {
        const int body = layout.body_of(dof), local = dof - layout.offset(body);
        if (body == b) node.Gc(k, local) += coefficient;
        else if (body == p) node.Gp(k, local) += coefficient;
      }
    }
    if (m > 0) independent_ = factor_spd(node.GGt, Square(node.Gc * node.Gc.transpose())) && independent_;
  }
}

void TreeKkt::restoration(const VecX& r, VecX& delta) const {
  delta.setZero(dofs_);
  Small rhs;
  for (auto it = forest_.leaves_first().rbegin(); it != forest_.leaves_first().rend(); ++it) {
    const int b = *it, p = forest_.parent(b);
    const Node& node = nodes_[b];
    const std::vector<int>& owned = forest_.rows_of(b);
    if (owned.empty()) continue;
    rhs.resize(static_cast<int>(owned.size()));
    for (std::size_t k = 0; k < owned.size(); ++k) rhs[k] = r[owned[k]];
    if (p >= 0) rhs.noalias() -= node.Gp * delta.segment<12>(12 * p);
    delta.segment<12>(12 * b).noalias() = node.Gc.transpose() * node.GGt.solve(rhs);
  }
}

namespace {

/// The inverse of an SPD matrix from its LLT, symmetrised (the preconditioned iteration wants a
/// symmetric operator).
void inverse_from(const Eigen::LLT<Mat12>& llt, Mat12& inverse) {
  inverse.setIdentity();
  llt.solveInPlace(inverse);
  inverse = 0.5 * (inverse + inverse.transpose()).eval();
}

/// a·b: coefficient by coefficient for compile-time sizes M, by Eigen's general product otherwise.
template <int M, class A, class B>
auto product(const A& a, const B& b) {
  if constexpr (M == Eigen::Dynamic) return (a * b).eval();
  else return a.lazyProduct(b);
}

}  // namespace

template <int M>
bool TreeKkt::eliminate(int b) {
  // Fixed M: every product below has compile-time sizes and is taken coefficient by coefficient (the
  // general matrix kernel's packing costs more than it saves at 12 × 3 × 12).
  using RowsM = Eigen::Matrix<double, M, 12, Eigen::RowMajor, (M == Eigen::Dynamic ? 12 : M), 12>;
  using ColumnsM = Eigen::Matrix<double, 12, M, Eigen::ColMajor, 12, (M == Eigen::Dynamic ? 12 : M)>;
  using SquareM = Eigen::Matrix<double, M, M, Eigen::ColMajor, (M == Eigen::Dynamic ? 12 : M),
                                (M == Eigen::Dynamic ? 12 : M)>;
  Node& node = nodes_[b];
  const int m = static_cast<int>(node.Gc.rows()), p = forest_.parent(b);
  Eigen::LLT<Mat12> A;
  if (!factor_spd(A, articulated_[b])) return false;
  inverse_from(A, node.A_inverse);
  if (m == 0) return true;  // a root without unary rows (a body with a parent owns that edge's rows)
  const RowsM Gc = node.Gc;
  const ColumnsM Y = product<M>(node.A_inverse, Gc.transpose());
  Eigen::LLT<SquareM> S;
  if (!factor_spd(S, SquareM(product<M>(Gc, Y)))) return false;
  node.Y = Y;
  node.S_lower = S.matrixL();
  if (p < 0) return true;
  RowsM G_hat = node.Gp;
  Mat12& parent = articulated_[p];
  if (node.coupled) {
    const Mat12 F = product<M>(node.A_inverse, node.Hbp);
    parent.noalias() -= product<M>(node.Hbp.transpose(), F);
    G_hat.noalias() -= product<M>(Gc, F);
    node.T = F;
  } else {
    node.T.setZero();
  }
  const RowsM K = S.solve(G_hat);
  parent.noalias() += product<M>(G_hat.transpose(), K);
  node.T.noalias() += product<M>(Y, K);
  node.K = K;
  return true;
}

bool TreeKkt::factorize(const BlockHessian& H) {
  const int n = forest_.body_count();
  for (int b = 0; b < n; ++b) {
    articulated_[b] = H.diagonal(b);
    nodes_[b].coupled = false;
  }
  for (const auto& [key, block] : H.couplings()) {  // block = H(key.second, key.first)
    const int row = key.second, column = key.first;
    if (forest_.parent(row) == column) {
      nodes_[row].Hbp = block, nodes_[row].coupled = true;
    } else if (forest_.parent(column) == row) {
      nodes_[column].Hbp = block.transpose(), nodes_[column].coupled = true;
    }
  }
  for (int b : forest_.leaves_first()) {  // upward pass (header)
    bool ok;
    switch (nodes_[b].Gc.rows()) {
      case 3: ok = eliminate<3>(b); break;
      case 6: ok = eliminate<6>(b); break;
      default: ok = eliminate<Eigen::Dynamic>(b); break;
    }
    if (!ok) return false;
  }
  return true;
}

void TreeKkt::solve(const VecX& a, const VecX& e, VecX& dq, VecX* lambda) {
  dq.resize(dofs_);
  const int n = forest_.body_count();
  for (int b = 0; b < n; ++b) gradient_[b] = a.segment<12>(12 * b);
  Small rhs;
  for (int b : forest_.leaves_first()) {  // upward: x⁰ and the parent's a
    const Node& node = nodes_[b];
    const std::vector<int>& owned = forest_.rows_of(b);
    const int m = static_cast<int>(owned.size()), p = forest_.parent(b);
    Vec12& x = gradient_[b];
    x = -(node.A_inverse * x);  // x̂ = −A⁻¹a
    if (m == 0) continue;  // a root without unary rows (a body with a parent owns that edge's rows)
    rhs.resize(m);
    for (int k = 0; k < m; ++k) rhs[k] = -e[owned[k]];
    rhs.noalias() += node.Gc * x;
    Small& u = u_[b];
    u = rhs;
    node.S_lower.triangularView<Eigen::Lower>().solveInPlace(u);
    node.S_lower.triangularView<Eigen::Lower>().transpose().solveInPlace(u);
    x.noalias() -= node.Y * u;  // x⁰
    if (p < 0) continue;
    gradient_[p].noalias() += node.Gp.transpose() * u;
    if (node.coupled) gradient_[p].noalias() += node.Hbp.transpose() * x;
  }
  for (auto it = forest_.leaves_first().rbegin(); it != forest_.leaves_first().rend(); ++it) {  // downward
    const int b = *it, p = forest_.parent(b);
    if (p >= 0) gradient_[b].noalias() -= nodes_[b].T * dq.segment<12>(12 * p);
    dq.segment<12>(12 * b) = gradient_[b];
  }
  if (!lambda) return;
  lambda->resize(e.size());
  for (int b = 0; b < n; ++b) {
    const std::vector<int>& owned = forest_.rows_of(b);
    if (owned.empty()) continue;
    const int p = forest_.parent(b);
    Small l = u_[b];
    if (p >= 0) l.noalias() += nodes_[b].K * dq.segment<12>(12 * p);
    for (std::size_t k = 0; k < owned.size(); ++k) (*lambda)[owned[k]] = l[k];
  }
}

}  // namespace affix
