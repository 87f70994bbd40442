#include "affix/solvers/ipc/joint_space.hpp"

#include <algorithm>

namespace affix {

JointSpace::JointSpace(const std::vector<AffineBody>& bodies, const JointModel& model) {
  const DofLayout layout = affine_layout(bodies);
  const int n = layout.total();
  std::vector<SparseRow> eliminated;
  std::vector<int> joint_of_row;
  for (const JointRow& row : model.rows) {
    Row split;
    split.rhs = row.rhs;
    SparseRow dynamic;
    for (const auto& [dof, coefficient] : row.terms) {
      if (bodies[layout.body_of(dof)].is_dirichlet()) split.known.emplace_back(dof, coefficient);
      else dynamic.terms.emplace_back(dof, coefficient);
    }
    if (dynamic.terms.empty()) continue;  // joins prescribed bodies only: nothing to solve for
    rows_.push_back(std::move(split));
    eliminated.push_back(std::move(dynamic));
    joint_of_row.push_back(row.joint);
  }
  basis_ = BasisExtension(n, eliminated);
  free_basis_transpose_ = basis_.free_basis().transpose();
  for (int r : basis_.dropped_rows()) {
    const std::string& name = model.names[joint_of_row[r]];
    if (std::find(redundant_joints_.begin(), redundant_joints_.end(), name) == redundant_joints_.end())
      redundant_joints_.push_back(name);
  }
}

void JointSpace::update_targets(const VecX& q) {
  VecX s(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    s[r] = rows_[r].rhs;
    for (const auto& [dof, coefficient] : rows_[r].known) s[r] -= coefficient * q[dof];
  }
  targets_ = basis_.eliminated_rhs(s);
}

VecX JointSpace::restoration(const VecX& q) const { return basis_.restoration(q, targets_); }

bool JointSpace::solve(const BlockHessian& H, const VecX& gradient, const VecX& delta, SparseCholesky& solver,
                       VecX& dq) const {
  const Eigen::SparseMatrix<double>& N = basis_.free_basis();
  const Eigen::SparseMatrix<double> H_full = to_sparse(H);
  const Eigen::SparseMatrix<double> HN = H_full * N;
  const Eigen::SparseMatrix<double> reduced = free_basis_transpose_ * HN;  // Nᵀ kept column-major
  const VecX rhs = -(free_basis_transpose_ * (gradient + H_full * delta));
  if (!solver.factorize(reduced)) return false;
  dq = delta + N * solver.solve(rhs);
  return true;
}

Eigen::SparseMatrix<double> to_sparse(const BlockHessian& H) {
  constexpr int m = BlockHessian::kBlockSize;
  const int n = m * H.block_count();
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(m * m * (H.block_count() + 2 * H.couplings().size()));
  const auto add_block = [&](int I, int J, const BlockHessian::Block& block) {
    for (int c = 0; c < m; ++c)
      for (int r = 0; r < m; ++r) entries.emplace_back(m * I + r, m * J + c, block(r, c));
  };
  for (int i = 0; i < H.block_count(); ++i) add_block(i, i, H.diagonal(i));
  for (const auto& [key, block] : H.couplings()) {  // block (row, column) = (key.second, key.first)
    add_block(key.second, key.first, block);
    add_block(key.first, key.second, block.transpose());
  }
  Eigen::SparseMatrix<double> out(n, n);
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

}  // namespace affix
