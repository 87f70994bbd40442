#include "affix/solvers/impulse/articulation_system.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <utility>

namespace affix {

ArticulationSystem::ArticulationSystem(std::vector<SystemJoint> joints, int body_count)
    : joints_(std::move(joints)) {
  for (SystemJoint& j : joints_) {
    j.offset = size_;
    size_ += j.rows;
  }
  // Which joint sides act on each body.
  std::vector<std::vector<std::pair<int, int>>> on_body(body_count);
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j) {
    if (joints_[j].body1 >= 0) on_body[joints_[j].body1].push_back({j, 0});
    if (joints_[j].body2 >= 0) on_body[joints_[j].body2].push_back({j, 1});
  }
  std::map<std::pair<int, int>, int> block_of;
  std::vector<std::pair<int, int>> blocks;
  for (int b = 0; b < body_count; ++b)
    for (const auto& [j, sj] : on_body[b])
      for (const auto& [k, sk] : on_body[b]) {
        if (j < k) continue;  // lower triangle: the row block at or below the column block
        const auto [it, inserted] = block_of.try_emplace({j, k}, static_cast<int>(blocks.size()));
        if (inserted) blocks.push_back({j, k});
        if (j == k && sj != sk) continue;  // a joint's diagonal block takes each of its bodies once
        couplings_.push_back({j, sj, k, sk, b, it->second});
      }
  // Every diagonal block is there even when a row is free (a joint whose bodies are all prescribed is
  // the caller's to leave out, but a free limit row still needs its diagonal).
  for (int j = 0; j < static_cast<int>(joints_.size()); ++j)
    if (block_of.try_emplace({j, j}, static_cast<int>(blocks.size())).second) blocks.push_back({j, j});
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto& [j, k] : blocks) {
    const SystemJoint &row = joints_[j], &col = joints_[k];
    for (int c = 0; c < col.rows; ++c)
      for (int r = (j == k ? c : 0); r < row.rows; ++r) entries.emplace_back(row.offset + r, col.offset + c, 0.0);
  }
  matrix_.resize(size_, size_);
  matrix_.setFromTriplets(entries.begin(), entries.end());
  matrix_.makeCompressed();
  const auto index_of = [&](int row, int col) {
    const int* inner = matrix_.innerIndexPtr();
    const int begin = matrix_.outerIndexPtr()[col], end = matrix_.outerIndexPtr()[col + 1];
    const int* at = std::lower_bound(inner + begin, inner + end, row);
    assert(at != inner + end && *at == row);
    return static_cast<int>(at - inner);
  };
  starts_.resize(blocks.size());
  for (std::size_t s = 0; s < blocks.size(); ++s) {
    const auto [j, k] = blocks[s];
    const SystemJoint &row = joints_[j], &col = joints_[k];
    for (int c = 0; c < col.rows; ++c) starts_[s].push_back(index_of(row.offset + (j == k ? c : 0), col.offset + c));
  }
  diagonal_.resize(size_);
  for (int i = 0; i < size_; ++i) diagonal_[i] = index_of(i, i);
  column_sums_.assign(size_, 0.0);
  ldlt_ = std::make_unique<Eigen::CholmodSimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower>>();
}

bool ArticulationSystem::factorize(const std::vector<JointJacobian>& J1, const std::vector<JointJacobian>& J2,
                                   const std::vector<Mat6>& W, const std::vector<char>& free, double tikhonov) {
  if (size_ == 0) return true;
  double* values = matrix_.valuePtr();
  std::fill(values, values + matrix_.nonZeros(), 0.0);
  for (const Coupling& c : couplings_) {
    const JointJacobian& Jj = c.side_j == 0 ? J1[c.j] : J2[c.j];
    const JointJacobian& Jk = c.side_k == 0 ? J1[c.k] : J2[c.k];
    const bool diagonal = c.j == c.k;
    // J_jb W_b J_kbᵀ (header), column by column into the stored lower triangle.
    const Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::ColMajor, 9, 6> JW = Jj * W[c.body];
    const std::vector<int>& starts = starts_[c.block];
    for (int col = 0; col < Jk.rows(); ++col)
      for (int row = diagonal ? col : 0; row < Jj.rows(); ++row)
        values[starts[col] + row - (diagonal ? col : 0)] += JW.row(row).dot(Jk.row(col));
  }
  // α = ε_T‖A‖₁ (Tomcin §4): the largest column sum of |A|, both triangles.
  std::fill(column_sums_.begin(), column_sums_.end(), 0.0);
  for (int col = 0; col < size_; ++col)
    for (Eigen::SparseMatrix<double>::InnerIterator it(matrix_, col); it; ++it) {
      column_sums_[col] += std::abs(it.value());
      if (it.row() != col) column_sums_[it.row()] += std::abs(it.value());
    }
  alpha_ = tikhonov * *std::max_element(column_sums_.begin(), column_sums_.end());
  for (int i = 0; i < size_; ++i) values[diagonal_[i]] = free[i] ? 1.0 : values[diagonal_[i]] + alpha_;
  if (!analysed_) {
    ldlt_->analyzePattern(matrix_);  // AMD ordering and symbolic factorisation, once (Tomcin §6)
    analysed_ = true;
    ++symbolic_analyses_;
  }
  ldlt_->factorize(matrix_);
  return ldlt_->info() == Eigen::Success;
}

void ArticulationSystem::solve(const VecX& b, VecX& x) {
  if (size_ == 0) {
    x.resize(0);
    return;
  }
  x = ldlt_->solve(b);
}

}  // namespace affix
