#include "affix/solvers/mabd/dual_gauss_seidel.hpp"

#include <cmath>
#include <unordered_map>

#include "affix/solvers/mabd/spd_factor.hpp"

namespace affix {

std::vector<int> DualGaussSeidel::sweep_order(const DualMatrix& dual, const std::vector<int>& joints) const {
  // Breadth first from the joints on the world (header); a group with none starts at its first joint.
  const KktSystem& system = dual.system();
  std::unordered_map<int, bool> seen;
  seen.reserve(joints.size());
  std::vector<int> order;
  order.reserve(joints.size());
  const auto visit = [&](int j) {
    if (!seen.emplace(j, true).second) return;
    order.push_back(j);
  };
  for (int j : joints)
    if (system.joints[j].body1 < 0 || system.joints[j].body2 < 0) visit(j);
  if (order.empty()) visit(joints.front());
  for (std::size_t head = 0; head < order.size(); ++head) {
    const KktJoint& joint = system.joints[order[head]];
    for (int b : {joint.body1, joint.body2})
      if (b >= 0)
        for (int k : dual.joints_of(b)) visit(k);
  }
  return order;
}

bool DualGaussSeidel::solve(const DualMatrix& dual, const std::vector<int>& joints, const std::vector<int>& offsets,
                            const std::vector<Vec12>& free_steps, double shift, const GaussSeidelLimits& limits,
                            const VecX* warm, KktSolution& solution) {
  const KktSystem& system = dual.system();
  const std::vector<int> order = sweep_order(dual, joints);
  const int n = static_cast<int>(order.size());
  pivots_.resize(n);
  for (int i = 0; i < n; ++i) {
    DualBlock A = dual.block(order[i], order[i]);
    A.diagonal().array() += shift;
    if (!factor_spd(pivots_[i], A)) return false;
  }

  // λ from the warm start or 0, and Δq = Δq_free − Σ W λ to match (Eq. 27).
  double scale = 0.0;  // ‖r‖²
  for (int j : order) {
    const KktJoint& joint = system.joints[j];
    if (joint.body1 >= 0) solution.dq[joint.body1] = free_steps[joint.body1];
    if (joint.body2 >= 0) solution.dq[joint.body2] = free_steps[joint.body2];
    scale += dual.rhs(j, free_steps).squaredNorm();
  }
  for (int j : order) {
    const KktJoint& joint = system.joints[j];
    auto lambda = solution.lambda.segment(offsets[j], joint.rows());
    if (warm && warm->size() == solution.lambda.size()) lambda = warm->segment(offsets[j], joint.rows());
    else lambda.setZero();
    const JointResponse& W = dual.response(j);
    if (joint.body1 >= 0) solution.dq[joint.body1].noalias() -= W.W1 * lambda;
    if (joint.body2 >= 0) solution.dq[joint.body2].noalias() -= W.W2 * lambda;
  }

  // (r − (D + shift·I) λ)_j = C_j + G_j Δq − shift·λ_j (header).
  const auto residual = [&](int j) {
    const KktJoint& joint = system.joints[j];
    CompactVector e = joint.residual - shift * solution.lambda.segment(offsets[j], joint.rows());
    if (joint.body1 >= 0) e.noalias() += joint.G1 * solution.dq[joint.body1];
    if (joint.body2 >= 0) e.noalias() += joint.G2 * solution.dq[joint.body2];
    return e;
  };
  const auto relax = [&](int i) {
    const int j = order[i];
    const KktJoint& joint = system.joints[j];
    const CompactVector delta = pivots_[i].solve(residual(j));
    solution.lambda.segment(offsets[j], joint.rows()) += delta;
    const JointResponse& W = dual.response(j);
    if (joint.body1 >= 0) solution.dq[joint.body1].noalias() -= W.W1 * delta;
    if (joint.body2 >= 0) solution.dq[joint.body2].noalias() -= W.W2 * delta;
  };
  const auto relative_residual = [&] {
    double sum = 0.0;
    for (int j : order) sum += residual(j).squaredNorm();
    return scale > 0.0 ? std::sqrt(sum / scale) : std::sqrt(sum);
  };

  report_ = {};
  report_.residual = relative_residual();
  while (report_.residual > limits.tolerance && report_.sweeps < limits.sweeps) {
    for (int i = 0; i < n; ++i) relax(i);       // forward, from the supports
    for (int i = n - 2; i >= 0; --i) relax(i);  // backward, to the supports (the last joint is relaxed)
    ++report_.sweeps;
    report_.residual = relative_residual();
  }
  report_.converged = report_.residual <= limits.tolerance;
  return true;
}

}  // namespace affix
