#include "affix/solvers/linear/sparse_cholesky.hpp"

#include <algorithm>

#include "affix/solvers/linear/blas_info.hpp"

namespace affix {
namespace {

/// first[J] … first[J + 1] − 1: the couplings of block column J (BlockHessian keeps them column-major).
std::vector<int> column_starts(const BlockHessian& H) {
  std::vector<int> first(H.block_count() + 1, 0);
  for (const auto& [key, block] : H.couplings()) ++first[key.first + 1];
  for (int J = 0; J < H.block_count(); ++J) first[J + 1] += first[J];
  return first;
}

}  // namespace

SparseCholesky::SparseCholesky()
    : llt_(std::make_unique<Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>, Eigen::Lower>>()) {
  // Whatever CHOLMOD finds (a matrix that is not positive definite, memory) is reported by factorize()
  // and handled by the caller, a regularised retry or an error; CHOLMOD would also printf it each time.
  llt_->cholmod().print = 0;
  limit_blas_threads();
}
SparseCholesky::~SparseCholesky() = default;

// The lower triangle of scalar column c = mJ + k (m = kBlockSize) holds rows mJ + k … mJ + m − 1 of the
// diagonal block, then m rows of each coupling block below it.
void SparseCholesky::build_structure(const BlockHessian& H) {
  constexpr int m = BlockHessian::kBlockSize;
  const int n = m * H.block_count();
  const std::vector<int> first = column_starts(H);
  std::vector<Eigen::Triplet<double>> entries;
  for (int J = 0; J < H.block_count(); ++J) {
    for (int k = 0; k < m; ++k) {
      for (int r = k; r < m; ++r) entries.emplace_back(m * J + r, m * J + k, 0.0);
      for (int c = first[J]; c < first[J + 1]; ++c)
        for (int r = 0; r < m; ++r) entries.emplace_back(m * H.couplings()[c].first.second + r, m * J + k, 0.0);
    }
  }
  lower_.resize(n, n);
  lower_.setFromTriplets(entries.begin(), entries.end());
  lower_.makeCompressed();
}

// Walks the blocks in the order of the compressed lower triangle's values: no lookup per entry.
void SparseCholesky::fill_values(const BlockHessian& H) {
  constexpr int m = BlockHessian::kBlockSize;
  const std::vector<int> first = column_starts(H);
  double* value = lower_.valuePtr();
  for (int J = 0; J < H.block_count(); ++J) {
    const BlockHessian::Block& D = H.diagonal(J);
    for (int k = 0; k < m; ++k) {
      for (int r = k; r < m; ++r) *value++ = D(r, k);
      for (int c = first[J]; c < first[J + 1]; ++c) {
        const BlockHessian::Block& B = H.couplings()[c].second;
        for (int r = 0; r < m; ++r) *value++ = B(r, k);
      }
    }
  }
}

bool SparseCholesky::factorize(const BlockHessian& H) {
  empty_ = H.block_count() == 0;
  if (empty_) return true;
  Pattern pattern;
  pattern.reserve(H.couplings().size());
  for (const auto& [key, block] : H.couplings()) pattern.push_back(key);
  if (H.block_count() != block_count_ || pattern != pattern_) {
    build_structure(H);
    fill_values(H);
    llt_->analyzePattern(lower_);
    ++symbolic_analyses_;
    block_count_ = H.block_count();
    pattern_ = std::move(pattern);
  } else {
    fill_values(H);
  }
  llt_->factorize(lower_);
  return llt_->info() == Eigen::Success;
}

bool SparseCholesky::factorize(const Eigen::SparseMatrix<double>& A) {
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
      block_count_ == -2 && general_outer_.size() == static_cast<std::size_t>(lower.outerSize() + 1) &&
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
    block_count_ = -2;  // the block pattern no longer describes the analysed structure
  }
  llt_->factorize(lower_);
  return llt_->info() == Eigen::Success;
}

VecX SparseCholesky::solve(const VecX& b) { return empty_ ? VecX(0) : VecX(llt_->solve(b)); }

}  // namespace affix
