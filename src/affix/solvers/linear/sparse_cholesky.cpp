#include "affix/solvers/linear/sparse_cholesky.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "affix/solvers/linear/blas_info.hpp"

namespace affix {

SparseCholesky::SparseCholesky() : llt_(new_llt()) { limit_blas_threads(); }
SparseCholesky::~SparseCholesky() = default;

std::unique_ptr<SparseCholesky::Llt> SparseCholesky::new_llt() const {
  auto llt = std::make_unique<Llt>();
  // Whatever CHOLMOD finds (a matrix that is not positive definite, memory) is reported by factorize()
  // and handled by the caller, a regularised retry or an error; CHOLMOD would also printf it each time.
  llt->cholmod().print = 0;
  return llt;
}

// The lower triangle of a part's scalar column c = mJ + k (m = kBlockSize, J the local block) holds rows
// mJ + k … mJ + m − 1 of the diagonal block, then m rows of each coupling block below it.
void SparseCholesky::build_structure(const BlockHessian& H, const std::vector<int>& couplings, Part& part) {
  constexpr int m = BlockHessian::kBlockSize;
  const int blocks = static_cast<int>(part.blocks.size());
  const auto local = [&](int block) {
    return static_cast<int>(std::lower_bound(part.blocks.begin(), part.blocks.end(), block) - part.blocks.begin());
  };
  part.first.assign(blocks + 1, 0);
  for (int c : couplings) ++part.first[local(H.couplings()[c].first.first) + 1];
  for (int J = 0; J < blocks; ++J) part.first[J + 1] += part.first[J];
  std::vector<Eigen::Triplet<double>> entries;
  for (int J = 0; J < blocks; ++J) {
    for (int k = 0; k < m; ++k) {
      for (int r = k; r < m; ++r) entries.emplace_back(m * J + r, m * J + k, 0.0);
      for (int c = part.first[J]; c < part.first[J + 1]; ++c)
        for (int r = 0; r < m; ++r)
          entries.emplace_back(m * local(H.couplings()[couplings[c]].first.second) + r, m * J + k, 0.0);
    }
  }
  part.lower.resize(m * blocks, m * blocks);
  part.lower.setFromTriplets(entries.begin(), entries.end());
  part.lower.makeCompressed();
}

// Walks the blocks in the order of the compressed lower triangle's values: no lookup per entry. (A
// part's couplings are in H's column-major order, so those of local column J are contiguous and their
// rows ascending.)
void SparseCholesky::fill_values(const BlockHessian& H, const std::vector<int>& couplings, Part& part) {
  constexpr int m = BlockHessian::kBlockSize;
  double* value = part.lower.valuePtr();
  for (int J = 0; J < static_cast<int>(part.blocks.size()); ++J) {
    const BlockHessian::Block& D = H.diagonal(part.blocks[J]);
    for (int k = 0; k < m; ++k) {
      for (int r = k; r < m; ++r) *value++ = D(r, k);
      for (int c = part.first[J]; c < part.first[J + 1]; ++c) {
        const BlockHessian::Block& B = H.couplings()[couplings[c]].second;
        for (int r = 0; r < m; ++r) *value++ = B(r, k);
      }
    }
  }
}

bool SparseCholesky::factorize_part(const BlockHessian& H, int component) {
  const std::vector<int>& blocks = partition_.components[component];
  const std::vector<int>& couplings = partition_.couplings[component];
  std::unique_ptr<Part>& slot = parts_[blocks.front()];
  if (!slot) slot = std::make_unique<Part>();
  Part& part = *slot;
  const bool same = part.llt && part.blocks == blocks && part.pattern.size() == couplings.size() &&
                    std::equal(couplings.begin(), couplings.end(), part.pattern.begin(),
                               [&](int c, const auto& key) { return H.couplings()[c].first == key; });
  if (!same) {
    part.blocks = blocks;
    part.pattern.clear();
    for (int c : couplings) part.pattern.push_back(H.couplings()[c].first);
    build_structure(H, couplings, part);
    fill_values(H, couplings, part);
    if (!part.llt) part.llt = new_llt();
    part.llt->analyzePattern(part.lower);
    ++symbolic_analyses_;
  } else {
    fill_values(H, couplings, part);
  }
  part.llt->factorize(part.lower);
  return part.llt->info() == Eigen::Success;
}

bool SparseCholesky::factorize(const BlockHessian& H) {
  block_system_ = true;
  empty_ = H.block_count() == 0;
  if (empty_) return true;
  if (static_cast<int>(parts_.size()) != H.block_count()) {
    parts_.clear();
    parts_.resize(H.block_count());
    dense_llt_.resize(H.block_count());
  }
  partition_blocks(H, partition_);
  sparse_.clear(), dense_.clear();
  std::vector<int> sparse_components;
  for (int c = 0; c < static_cast<int>(partition_.components.size()); ++c) {
    if (partition_.components[c].size() == 1) dense_.push_back(partition_.components[c].front());
    else sparse_.push_back(partition_.components[c].front()), sparse_components.push_back(c);
  }
  // Lone blocks in parallel (Eigen only); CHOLMOD's parts one after the other, as its BLAS may not be
  // reentrant.
  std::vector<char> ok(dense_.size(), 0);
  tbb::parallel_for(0, static_cast<int>(dense_.size()), [&](int k) {
    const int i = dense_[k];
    dense_llt_[i].compute(H.diagonal(i));
    ok[k] = dense_llt_[i].info() == Eigen::Success;
  });
  bool success = std::all_of(ok.begin(), ok.end(), [](char c) { return c != 0; });
  for (int c : sparse_components) success = factorize_part(H, c) && success;
  return success;
}

bool SparseCholesky::factorize(const Eigen::SparseMatrix<double>& A) {
  block_system_ = false;
  // A system with no unknowns (every DOF held by joints to the world) is solved by the empty vector;
  // CHOLMOD cannot analyse a 0×0 matrix.
  empty_ = A.rows() == 0;
  if (empty_) return true;
  Eigen::SparseMatrix<double> lower = A.triangularView<Eigen::Lower>();
  lower.makeCompressed();
  // Compare the pattern in place: this runs every Newton iteration.
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  const bool same_pattern =
      general_analysed_ && general_outer_.size() == static_cast<std::size_t>(lower.outerSize() + 1) &&
      general_inner_.size() == static_cast<std::size_t>(lower.nonZeros()) &&
      std::equal(general_outer_.begin(), general_outer_.end(), outer) &&
      std::equal(general_inner_.begin(), general_inner_.end(), inner);
  if (!same_pattern) {
    general_outer_.assign(outer, outer + lower.outerSize() + 1);
    general_inner_.assign(inner, inner + lower.nonZeros());
  }
  lower_ = std::move(lower);
  if (!same_pattern) {
    llt_->analyzePattern(lower_);
    ++symbolic_analyses_;
    general_analysed_ = true;
  }
  llt_->factorize(lower_);
  return llt_->info() == Eigen::Success;
}

VecX SparseCholesky::solve(const VecX& b) {
  if (empty_) return VecX(0);
  if (!block_system_) return llt_->solve(b);
  constexpr int m = BlockHessian::kBlockSize;
  VecX x = b;  // held blocks: the identity
  tbb::parallel_for(0, static_cast<int>(dense_.size()), [&](int k) {
    const int i = dense_[k];
    x.segment<m>(m * i) = dense_llt_[i].solve(b.segment<m>(m * i));
  });
  for (int first : sparse_) {
    Part& part = *parts_[first];
    part.rhs.resize(m * static_cast<int>(part.blocks.size()));
    for (std::size_t J = 0; J < part.blocks.size(); ++J) part.rhs.segment<m>(m * J) = b.segment<m>(m * part.blocks[J]);
    const VecX y = part.llt->solve(part.rhs);
    for (std::size_t J = 0; J < part.blocks.size(); ++J) x.segment<m>(m * part.blocks[J]) = y.segment<m>(m * J);
  }
  return x;
}

}  // namespace affix
