#include "affix/solvers/mabd/block_thomas.hpp"

#include "affix/solvers/mabd/spd_factor.hpp"

namespace affix {

bool BlockThomas::solve(const DualMatrix& dual, const std::vector<int>& joints, const std::vector<int>& offsets,
                        const std::vector<Vec12>& free_steps, double shift, KktSolution& solution) {
  const KktSystem& system = dual.system();
  const int n = static_cast<int>(joints.size());
  X_.resize(n);
  z_.resize(n);

  // Forward elimination (header, Eq. 40): P_i and y_i overwrite A_i and r_i.
  DualBlock B;  // B_i−1 = D_{i−1,i}
  for (int i = 0; i < n; ++i) {
    const int j = joints[i];
    DualBlock P = dual.block(j, j);
    P.diagonal().array() += shift;
    CompactVector y = dual.rhs(j, free_steps);
    if (i > 0) {
      P.noalias() -= B.transpose().lazyProduct(X_[i - 1]);
      y.noalias() -= B.transpose().lazyProduct(z_[i - 1]);
    }
    Eigen::LLT<DualBlock> pivot;
    if (!factor_spd(pivot, P)) return false;
    z_[i] = pivot.solve(y);
    if (i + 1 < n) {
      B = dual.block(j, joints[i + 1]);
      X_[i] = pivot.solve(B);
    }
  }

  // Back substitution: z_i becomes λ_i.
  for (int i = n - 2; i >= 0; --i) z_[i].noalias() -= X_[i].lazyProduct(z_[i + 1]);
  for (int i = 0; i < n; ++i) solution.lambda.segment(offsets[joints[i]], z_[i].size()) = z_[i];

  // Eq. 41: Δq_b = Δq_free,b − Σ_j W_jb λ_j over the joints that move b.
  start_from_free_steps(system, joints, free_steps, solution.dq);
  for (int i = 0; i < n; ++i) {
    const KktJoint& joint = system.joints[joints[i]];
    const JointResponse& W = dual.response(joints[i]);
    if (joint.body1 >= 0) solution.dq[joint.body1].noalias() -= W.W1.lazyProduct(z_[i]);
    if (joint.body2 >= 0) solution.dq[joint.body2].noalias() -= W.W2.lazyProduct(z_[i]);
  }
  return true;
}

}  // namespace affix
