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

  Mat12 F;
  Rows G_hat;
  for (int b : forest_.leaves_first()) {  // upward pass (header)
    Node& node = nodes_[b];
    const int m = static_cast<int>(node.Gc.rows()), p = forest_.parent(b);
    if (!factor_spd(node.A, articulated_[b])) return false;
    if (m > 0) {
      node.Y = node.A.solve(node.Gc.transpose());
      const Square S = node.Gc.lazyProduct(node.Y);
      if (!factor_spd(node.S, S)) return false;
    }
    if (p < 0) continue;
    if (node.coupled) {
      F = node.A.solve(node.Hbp);
      articulated_[p].noalias() -= node.Hbp.transpose() * F;
      G_hat = node.Gp - node.Gc * F;
    } else {
      G_hat = node.Gp;
    }
    // m > 0 here: a body with a parent owns the rows of that edge.
    node.K = node.S.solve(G_hat);
    articulated_[p].noalias() += G_hat.transpose() * node.K;
    node.T.noalias() = node.Y * node.K;
    if (node.coupled) node.T += F;
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
    x = -node.A.solve(x);  // x̂ = −A⁻¹a
    if (m == 0) continue;  // a root without unary rows (a body with a parent owns that edge's rows)
    rhs.resize(m);
    for (int k = 0; k < m; ++k) rhs[k] = -e[owned[k]];
    rhs.noalias() += node.Gc * x;
    Small& u = u_[b];
    u = node.S.solve(rhs);
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
