#include "affix/solvers/mabd/dual_matrix.hpp"

#include <array>

namespace affix {

void DualMatrix::assemble(const KktSystem& system) {
  system_ = &system;
  responses_.resize(system.joints.size());
  joint_start_.assign(system.bodies.size() + 1, 0);
  // The joints of each body in one flat array (counted, then filled in joint order: ascending).
  const auto sides = [](const KktJoint& joint) {
    return std::array<int, 2>{joint.body1, joint.body2 != joint.body1 ? joint.body2 : -1};
  };
  for (const KktJoint& joint : system.joints)
    for (int b : sides(joint))
      if (b >= 0) ++joint_start_[b + 1];
  for (std::size_t b = 0; b < system.bodies.size(); ++b) joint_start_[b + 1] += joint_start_[b];
  joint_list_.resize(joint_start_.back());
  next_.assign(joint_start_.begin(), joint_start_.end() - 1);
  for (int j = 0; j < static_cast<int>(system.joints.size()); ++j) {
    const KktJoint& joint = system.joints[j];
    for (int b : sides(joint))
      if (b >= 0) joint_list_[next_[b]++] = j;
    if (joint.body1 >= 0) responses_[j].W1 = system.bodies[joint.body1].solve_rows(joint.G1);
    if (joint.body2 >= 0) responses_[j].W2 = system.bodies[joint.body2].solve_rows(joint.G2);
  }
}

DualBlock DualMatrix::block(int j, int k) const {
  const KktJoint& a = system_->joints[j];
  const KktJoint& b = system_->joints[k];
  DualBlock D = DualBlock::Zero(a.rows(), b.rows());
  // G_ja W_kb over each side of j and each side of k that move the same body.
  const int a_bodies[2] = {a.body1, a.body2};
  const int b_bodies[2] = {b.body1, b.body2};
  for (int sa = 0; sa < 2; ++sa) {
    if (a_bodies[sa] < 0) continue;
    const JointRows& G = sa == 0 ? a.G1 : a.G2;
    for (int sb = 0; sb < 2; ++sb) {
      if (b_bodies[sb] != a_bodies[sa]) continue;
      D.noalias() += G.lazyProduct(sb == 0 ? responses_[k].W1 : responses_[k].W2);  // m × 12 × m: no GEMM
    }
  }
  return D;
}

CompactVector DualMatrix::rhs(int j, const std::vector<Vec12>& free_steps) const {
  const KktJoint& joint = system_->joints[j];
  CompactVector r = joint.residual;
  if (joint.body1 >= 0) r.noalias() += joint.G1.lazyProduct(free_steps[joint.body1]);
  if (joint.body2 >= 0) r.noalias() += joint.G2.lazyProduct(free_steps[joint.body2]);
  return r;
}

}  // namespace affix
