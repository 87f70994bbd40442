#include "affix/solvers/ipc/joint_space.hpp"

#include <algorithm>

#include "affix/solvers/ipc/joint_forest.hpp"

namespace affix {

JointSpace::JointSpace(const std::vector<AffineBody>& bodies, const JointModel& model, JointSolverKind kind) {
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
  if (rows_.empty()) return;

  // The tree solve needs no elimination: a forest whose every body's rows have full rank has
  // independent rows (tree_kkt.hpp), and its restoration is solved body by body. The elimination fills
  // in along chains (O(links²) entries in C̃ and N), so it is built only for the other methods, or
  // when a tree solve fails (solve()).
  if (kind == JointSolverKind::automatic || kind == JointSolverKind::tree) {
    const JointForest forest(layout, eliminated);
    structure_ = forest.why();
    if (forest.is_forest()) {
      tree_ = std::make_unique<TreeStep>(forest, layout, eliminated);
      if (!tree_->tree().rows_independent()) {
        tree_.reset();
        structure_ = "some joint rows depend on others";
      }
    }
  }
  if (tree_) {
    kept_ = std::move(eliminated);
    method_ = JointSolverKind::tree;
    dof_count_ = n;
    return;
  }
  basis_ = BasisExtension(n, eliminated);
  for (int r : basis_.dropped_rows()) {
    const std::string& name = model.names[joint_of_row[r]];
    if (std::find(redundant_joints_.begin(), redundant_joints_.end(), name) == redundant_joints_.end())
      redundant_joints_.push_back(name);
  }
  std::vector<char> dropped(eliminated.size(), 0);
  for (int r : basis_.dropped_rows()) dropped[r] = 1;
  for (std::size_t r = 0; r < eliminated.size(); ++r)
    if (!dropped[r]) kept_.push_back(std::move(eliminated[r]));
  if (structure_.empty() && !basis_.dropped_rows().empty()) structure_ = "some joint rows depend on others";
  method_ = kind == JointSolverKind::dense ? JointSolverKind::dense : JointSolverKind::reduction;
}

void JointSpace::update_targets(const VecX& q) {
  VecX s(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) {
    s[r] = rows_[r].rhs;
    for (const auto& [dof, coefficient] : rows_[r].known) s[r] -= coefficient * q[dof];
  }
  if (tree_) row_targets_ = std::move(s);
  else targets_ = basis_.eliminated_rhs(s);
}

VecX JointSpace::restoration(const VecX& q) const {
  if (!tree_) return basis_.restoration(q, targets_);
  VecX residual = row_targets_, delta;  // s − C q on the dynamic DOFs
  for (std::size_t r = 0; r < kept_.size(); ++r)
    for (const auto& [dof, coefficient] : kept_[r].terms) residual[r] -= coefficient * q[dof];
  tree_->tree().restoration(residual, delta);
  return delta;
}

VecX JointSpace::row_values(const VecX& delta) const {
  VecX e(kept_.size());
  for (std::size_t r = 0; r < kept_.size(); ++r) {
    e[r] = 0.0;
    for (const auto& [dof, coefficient] : kept_[r].terms) e[r] += coefficient * delta[dof];
  }
  return e;
}

bool JointSpace::solve(const BlockHessian& H, const VecX& gradient, const VecX& delta, SparseCholesky& solver,
                       VecX& dq) const {
  // The KKT forms take the rows as C Δq = C δ: the reference's Δq = δ + N y satisfies exactly that
  // (C N = 0), also where the Newton loop zeroed δ on a converged body.
  switch (method_) {
    case JointSolverKind::tree:
      if (tree_->solve(H, gradient, row_values(delta), dq)) return true;
      ++fallbacks_;
      // The reduction takes any δ on the rows: Δq = δ + N y. Its elimination is built on first need.
      if (!fallback_basis_) fallback_basis_ = std::make_unique<BasisExtension>(dof_count_, kept_);
      return solve_reduced(*fallback_basis_, H, gradient, delta, solver, dq);
    case JointSolverKind::dense:
      if (dense_kkt_step(H, gradient, kept_, row_values(delta), dq)) return true;
      break;
    default: break;
  }
  return solve_reduced(basis_, H, gradient, delta, solver, dq);
}

bool JointSpace::solve_reduced(const BasisExtension& basis, const BlockHessian& H, const VecX& gradient,
                               const VecX& delta, SparseCholesky& solver, VecX& dq) const {
  const Eigen::SparseMatrix<double>& N = basis.free_basis();
  if (free_basis_transpose_.cols() != N.rows()) free_basis_transpose_ = N.transpose();
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
