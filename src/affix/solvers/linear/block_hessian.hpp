#pragma once
// A symmetric matrix of 12×12 blocks (kAffineDofs), one block row per affine body (Lan 2022 §4.3), in
// the body order of an affine DofLayout. Diagonal blocks
// always exist (mass and orthogonality); an off-diagonal block (i, j), i > j, exists only while a
// coupling term (contact, friction, joint) links bodies i and j, so the pattern is contact-aware.
#include <map>
#include <utility>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/model/dof_layout.hpp"

namespace affix {

class BlockHessian {
 public:
  static constexpr int kBlockSize = kAffineDofs;
  using Block = Mat12;
  static_assert(Mat12::RowsAtCompileTime == kBlockSize);

  void reset(int block_count);
  int block_count() const { return static_cast<int>(diagonal_.size()); }

  Block& diagonal(int i) { return diagonal_[i]; }
  const Block& diagonal(int i) const { return diagonal_[i]; }
  /// Adds to block (i, j), i ≠ j; the transpose (j, i) is implied.
  void add_coupling(int i, int j, const Block& block);

  /// Lower off-diagonal blocks keyed by (row, column) with row > column, in column-major order.
  const std::map<std::pair<int, int>, Block>& couplings() const { return couplings_; }

  /// Replaces the row and column of block i by the identity: the DOFs of body i are Dirichlet.
  void make_dirichlet(int i);

 private:
  std::vector<Block> diagonal_;
  std::map<std::pair<int, int>, Block> couplings_;  // key: (column, row) so iteration is column-major
};

}  // namespace affix
