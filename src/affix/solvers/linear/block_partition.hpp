#pragma once
// The independent parts of a BlockHessian system (Lan 2022 §4.3: H is block-diagonal across the bodies
// that no contact or joint links). A block is *held* when its diagonal is the identity and every
// coupling on it is zero (BlockHessian::make_dirichlet: a fixed body, or one whose island has converged):
// its solution is its right-hand side. The other blocks fall into the connected components of the
// declared couplings between them; each component is a system of its own, so it can be factorised
// alone, its symbolic analysis kept while its own pattern holds whatever the other components do, and
// a single block with no coupling needs no sparse factorisation at all.
#include <vector>

#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

struct BlockPartition {
  std::vector<char> held;  ///< per block
  /// Components of the other blocks, each ascending, ordered by their first block.
  std::vector<std::vector<int>> components;
  /// Per component, the indices into H.couplings() between its blocks, in H's (column-major) order.
  std::vector<std::vector<int>> couplings;
};

/// Fills `out` (its buffers reused) for H.
void partition_blocks(const BlockHessian& H, BlockPartition& out);

}  // namespace affix
