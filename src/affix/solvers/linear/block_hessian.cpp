#include "affix/solvers/linear/block_hessian.hpp"

#include <cassert>

namespace affix {

void BlockHessian::reset(int block_count) {
  diagonal_.assign(block_count, Block::Zero());
  couplings_.clear();
}

void BlockHessian::add_coupling(int i, int j, const Block& block) {
  assert(i != j);
  // Store the lower block (row > column) under the key (column, row).
  if (i > j) {
    auto [it, inserted] = couplings_.try_emplace({j, i}, block);
    if (!inserted) it->second += block;
  } else {
    auto [it, inserted] = couplings_.try_emplace({i, j}, block.transpose());
    if (!inserted) it->second += block.transpose();
  }
}

void BlockHessian::make_dirichlet(int i) {
  diagonal_[i] = Block::Identity();
  for (auto& [key, block] : couplings_)
    if (key.first == i || key.second == i) block.setZero();
}

}  // namespace affix
