#include "affix/solvers/compliant/reduced_system.hpp"

#include <algorithm>

namespace affix {

void ConstraintJacobian::multiply_add(const VecX& x, VecX& y) const {
  for (std::size_t j = 0; j < slots.size(); ++j) {
    const JointSlot& s = slots[j];
    for (int side = 0; side < 2; ++side)
      if (s.body[side] >= 0) y.segment(s.offset, s.count) += blocks[j][side] * x.segment<6>(6 * s.body[side]);
  }
}

void ConstraintJacobian::transpose_multiply_add(const VecX& mu, VecX& x) const {
  for (std::size_t j = 0; j < slots.size(); ++j) {
    const JointSlot& s = slots[j];
    for (int side = 0; side < 2; ++side)
      if (s.body[side] >= 0)
        x.segment<6>(6 * s.body[side]) += blocks[j][side].transpose() * mu.segment(s.offset, s.count);
  }
}

void ReducedSystem::set_structure(const ConstraintJacobian& J, int dense_rows) {
  std::vector<std::vector<std::array<int, 2>>> on_body(J.bodies);  // (joint, side)
  for (std::size_t j = 0; j < J.slots.size(); ++j)
    for (int side = 0; side < 2; ++side)
      if (J.slots[j].body[side] >= 0) on_body[J.slots[j].body[side]].push_back({static_cast<int>(j), side});
  couplings_.clear();
  for (int b = 0; b < J.bodies; ++b) {
    const auto& list = on_body[b];
    for (std::size_t i = 0; i < list.size(); ++i)
      for (std::size_t k = i; k < list.size(); ++k) {
        auto hi = list[i], lo = list[k];
        if (J.slots[hi[0]].offset < J.slots[lo[0]].offset) std::swap(hi, lo);
        couplings_.push_back({hi[0], hi[1], lo[0], lo[1], b});
      }
  }
  sparse_ = J.rows > dense_rows;
  if (!sparse_) {
    dense_.resize(J.rows, J.rows);
    return;
  }
  std::vector<Eigen::Triplet<double>> triplets;
  for (int r = 0; r < J.rows; ++r) triplets.emplace_back(r, r, 0.0);
  for (const Coupling& c : couplings_) {
    const JointSlot &a = J.slots[c.joint_a], &b = J.slots[c.joint_b];
    for (int r = 0; r < a.count; ++r)
      for (int k = 0; k < b.count; ++k)
        if (a.offset + r >= b.offset + k) triplets.emplace_back(a.offset + r, b.offset + k, 0.0);
  }
  lower_.resize(J.rows, J.rows);
  lower_.setFromTriplets(triplets.begin(), triplets.end());
  lower_.makeCompressed();
  const auto index_of = [&](int row, int col) {
    const int* begin = lower_.innerIndexPtr() + lower_.outerIndexPtr()[col];
    const int* end = lower_.innerIndexPtr() + lower_.outerIndexPtr()[col + 1];
    return static_cast<int>(std::lower_bound(begin, end, row) - lower_.innerIndexPtr());
  };
  value_index_.clear();
  for (Coupling& c : couplings_) {
    c.index = static_cast<int>(value_index_.size());
    const JointSlot &a = J.slots[c.joint_a], &b = J.slots[c.joint_b];
    for (int r = 0; r < a.count; ++r)
      for (int k = 0; k < b.count; ++k)
        value_index_.push_back(a.offset + r >= b.offset + k ? index_of(a.offset + r, b.offset + k) : -1);
  }
  diagonal_index_.resize(J.rows);
  for (int r = 0; r < J.rows; ++r) diagonal_index_[r] = index_of(r, r);
}

bool ReducedSystem::factorize(const ConstraintJacobian& J, const std::vector<Mat6>& W, const VecX& S) {
  if (sparse_) {
    std::fill(lower_.valuePtr(), lower_.valuePtr() + lower_.nonZeros(), 0.0);
    for (int r = 0; r < J.rows; ++r) lower_.valuePtr()[diagonal_index_[r]] += S[r];
  } else {
    dense_.setZero();
    dense_.diagonal() = S;
  }
  for (const Coupling& c : couplings_) {
    const JointSlot &a = J.slots[c.joint_a], &b = J.slots[c.joint_b];
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6> block =
        J.blocks[c.joint_a][c.side_a] * W[c.body] * J.blocks[c.joint_b][c.side_b].transpose();
    if (sparse_) {
      add_block(c, block);
      continue;
    }
    dense_.block(a.offset, b.offset, a.count, b.count) += block;
    if (c.joint_a != c.joint_b) dense_.block(b.offset, a.offset, b.count, a.count) += block.transpose();
  }
  if (sparse_) return cholmod_.factorize(lower_);
  ldlt_.compute(dense_);
  return ldlt_.info() == Eigen::Success && ldlt_.isPositive();
}

void ReducedSystem::add_block(const Coupling& c,
                              const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>& block) {
  const int* index = value_index_.data() + c.index;
  double* values = lower_.valuePtr();
  for (int r = 0; r < block.rows(); ++r)
    for (int k = 0; k < block.cols(); ++k, ++index)
      if (*index >= 0) values[*index] += block(r, k);
}

bool ReducedSystem::factorize_dense(const ConstraintJacobian& J, const MatX& W, const VecX& S) {
  sparse_ = false;
  WJt_.setZero(W.rows(), J.rows);
  for (std::size_t j = 0; j < J.slots.size(); ++j) {
    const JointSlot& s = J.slots[j];
    for (int side = 0; side < 2; ++side)
      if (s.body[side] >= 0)
        WJt_.middleCols(s.offset, s.count).noalias() += W.middleCols(6 * s.body[side], 6) * J.blocks[j][side].transpose();
  }
  dense_.setZero(J.rows, J.rows);
  dense_.diagonal() = S;
  for (std::size_t j = 0; j < J.slots.size(); ++j) {
    const JointSlot& s = J.slots[j];
    for (int side = 0; side < 2; ++side)
      if (s.body[side] >= 0)
        dense_.middleRows(s.offset, s.count).noalias() += J.blocks[j][side] * WJt_.middleRows(6 * s.body[side], 6);
  }
  // M̃ = M − h²·sym(K̃) is symmetric, so is this up to round-off; LDLT reads the lower triangle.
  ldlt_.compute(dense_);
  return ldlt_.info() == Eigen::Success;
}

VecX ReducedSystem::solve(const VecX& b) {
  if (b.size() == 0) return VecX(0);
  return sparse_ ? cholmod_.solve(b) : VecX(ldlt_.solve(b));
}

}  // namespace affix
