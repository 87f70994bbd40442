#pragma once
// A symmetric matrix of 12×12 blocks (kAffineDofs), one block row per affine body (Lan 2022 §4.3), in
// the body order of an affine DofLayout. Diagonal blocks
// always exist (mass and orthogonality); an off-diagonal block (i, j), i > j, exists only while a
// coupling term (contact, friction, joint) links bodies i and j, so the pattern is contact-aware.
//
// Lan 2022 §4.3 allocates the coupling blocks from the culling, before any contact is evaluated: every
// body pair that shares a contact candidate gets its block, whether or not a stencil turns out active.
// reset(n, pairs) does that: the blocks are laid out once in column-major order, each stencil adds
// into its block found by a binary search (no node allocation), and the pattern — hence CHOLMOD's
// symbolic analysis (sparse_cholesky.hpp) — stays the same while the candidate body pairs do. A
// coupling outside the declared pattern is still accepted (inserted in order).
#include <array>
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
  /// (column, row) of a lower off-diagonal block, row > column.
  using Key = std::pair<int, int>;
  using Coupling = std::pair<Key, Block>;

  /// Zero diagonal blocks, no coupling blocks.
  void reset(int block_count);
  /// Zero diagonal blocks and a zero coupling block for each body pair {a, b}, a ≠ b (any order,
  /// repeats allowed). Storage is reused when the pattern is the one already laid out.
  void reset(int block_count, const std::vector<std::array<int, 2>>& pairs);
  int block_count() const { return static_cast<int>(diagonal_.size()); }

  Block& diagonal(int i) { return diagonal_[i]; }
  const Block& diagonal(int i) const { return diagonal_[i]; }
  /// Adds to block (i, j), i ≠ j; the transpose (j, i) is implied.
  void add_coupling(int i, int j, const Block& block);

  /// Lower off-diagonal blocks, each (key (column, row), block (row, column)), sorted by key: column-major.
  const std::vector<Coupling>& couplings() const { return couplings_; }

  /// Replaces the row and column of block i by the identity: the DOFs of body i are Dirichlet.
  void make_dirichlet(int i);
  /// The same for every block i with solved[i] == 0, in one pass over the couplings.
  void make_dirichlet(const std::vector<char>& solved);

 private:
  std::vector<Block> diagonal_;
  std::vector<Coupling> couplings_;
};

}  // namespace affix
