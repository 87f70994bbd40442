#include "affix/solvers/linear/block_hessian.hpp"

#include <algorithm>
#include <array>
#include <cassert>

namespace affix {
namespace {

bool key_less(const BlockHessian::Coupling& c, const BlockHessian::Key& key) { return c.first < key; }

}  // namespace

void BlockHessian::reset(int block_count) {
  diagonal_.assign(block_count, Block::Zero());
  couplings_.clear();
}

void BlockHessian::reset(int block_count, const std::vector<std::array<int, 2>>& pairs) {
  diagonal_.assign(block_count, Block::Zero());
  std::vector<Key> keys;
  keys.reserve(pairs.size());
  for (const auto& [a, b] : pairs)
    if (a != b) keys.emplace_back(std::min(a, b), std::max(a, b));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const bool same = keys.size() == couplings_.size() &&
                    std::equal(keys.begin(), keys.end(), couplings_.begin(),
                               [](const Key& k, const Coupling& c) { return k == c.first; });
  if (same) {
    for (Coupling& c : couplings_) c.second.setZero();
    return;
  }
  couplings_.resize(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) couplings_[k] = {keys[k], Block::Zero()};
}

void BlockHessian::add_coupling(int i, int j, const Block& block) {
  assert(i != j);
  // Store the lower block (row > column) under the key (column, row).
  const Key key{std::min(i, j), std::max(i, j)};
  auto it = std::lower_bound(couplings_.begin(), couplings_.end(), key, key_less);
  if (it == couplings_.end() || it->first != key) it = couplings_.insert(it, {key, Block::Zero()});
  if (i > j) {
    it->second += block;
  } else {
    it->second += block.transpose();
  }
}

void BlockHessian::make_dirichlet(int i) {
  diagonal_[i] = Block::Identity();
  for (auto& [key, block] : couplings_)
    if (key.first == i || key.second == i) block.setZero();
}

void BlockHessian::make_dirichlet(const std::vector<char>& solved) {
  for (int i = 0; i < block_count(); ++i)
    if (!solved[i]) diagonal_[i] = Block::Identity();
  for (auto& [key, block] : couplings_)
    if (!solved[key.first] || !solved[key.second]) block.setZero();
}

}  // namespace affix
