#include "affix/solvers/mabd/dual_matrix.hpp"

namespace affix {
namespace {

/// H_b⁻¹ Gᵀ, a column per row of G.
ResponseBlock solve_rows(const KktBody& body, const CompactBlock& G) {
  ResponseBlock W(12, G.rows());
  for (int r = 0; r < G.rows(); ++r) W.col(r) = body.solve(G.row(r).transpose());
  return W;
}

}  // namespace

DualMatrix::DualMatrix(const KktSystem& system)
    : system_(system), responses_(system.joints.size()), joints_of_body_(system.bodies.size()) {
  for (int j = 0; j < static_cast<int>(system.joints.size()); ++j) {
    const KktJoint& joint = system.joints[j];
    if (joint.body1 >= 0) {
      responses_[j].W1 = solve_rows(system.bodies[joint.body1], joint.G1);
      joints_of_body_[joint.body1].push_back(j);
    }
    if (joint.body2 >= 0) {
      responses_[j].W2 = solve_rows(system.bodies[joint.body2], joint.G2);
      if (joint.body2 != joint.body1) joints_of_body_[joint.body2].push_back(j);
    }
  }
}

DualBlock DualMatrix::block(int j, int k) const {
  const KktJoint& a = system_.joints[j];
  const KktJoint& b = system_.joints[k];
  DualBlock D = DualBlock::Zero(a.rows(), b.rows());
  // G_ja W_kb over each side of j and each side of k that move the same body.
  const int a_bodies[2] = {a.body1, a.body2};
  const int b_bodies[2] = {b.body1, b.body2};
  for (int sa = 0; sa < 2; ++sa) {
    if (a_bodies[sa] < 0) continue;
    const CompactBlock& G = sa == 0 ? a.G1 : a.G2;
    for (int sb = 0; sb < 2; ++sb) {
      if (b_bodies[sb] != a_bodies[sa]) continue;
      D += G * (sb == 0 ? responses_[k].W1 : responses_[k].W2);
    }
  }
  return D;
}

CompactVector DualMatrix::rhs(int j, const std::vector<Vec12>& free_steps) const {
  const KktJoint& joint = system_.joints[j];
  CompactVector r = joint.residual;
  if (joint.body1 >= 0) r += joint.G1 * free_steps[joint.body1];
  if (joint.body2 >= 0) r += joint.G2 * free_steps[joint.body2];
  return r;
}

}  // namespace affix
