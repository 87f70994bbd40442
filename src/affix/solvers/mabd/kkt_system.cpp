#include "affix/solvers/mabd/kkt_system.hpp"

#include <algorithm>
#include <atomic>

namespace affix {

std::uint64_t new_structure() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

void KktSystem::dual_offsets(std::vector<int>& offsets) const {
  offsets.assign(joints.size() + 1, 0);
  for (std::size_t j = 0; j < joints.size(); ++j) offsets[j + 1] = offsets[j] + joints[j].rows();
}

std::vector<int> KktSystem::dual_offsets() const {
  std::vector<int> offsets;
  dual_offsets(offsets);
  return offsets;
}

std::vector<Vec12> KktSystem::free_steps() const {
  std::vector<Vec12> dq(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) dq[b] = -bodies[b].solve(bodies[b].gradient);
  return dq;
}

void start_from_free_steps(const KktSystem& system, const std::vector<int>& joints,
                           const std::vector<Vec12>& free_steps, std::vector<Vec12>& dq) {
  for (int j : joints) {
    const KktJoint& joint = system.joints[j];
    if (joint.body1 >= 0) dq[joint.body1] = free_steps[joint.body1];
    if (joint.body2 >= 0) dq[joint.body2] = free_steps[joint.body2];
  }
}

std::vector<Vec12> primal_steps(const KktSystem& system, const std::vector<Vec12>& free_steps, const VecX& lambda) {
  // Gᵀλ gathered per body first, so each body pays for one solve.
  std::vector<Vec12> force(system.bodies.size(), Vec12::Zero());
  int offset = 0;
  for (const KktJoint& joint : system.joints) {
    const auto l = lambda.segment(offset, joint.rows());
    if (joint.body1 >= 0) force[joint.body1] += joint.G1.transpose() * l;
    if (joint.body2 >= 0) force[joint.body2] += joint.G2.transpose() * l;
    offset += joint.rows();
  }
  std::vector<Vec12> dq(free_steps);
  for (std::size_t b = 0; b < dq.size(); ++b) dq[b] -= system.bodies[b].solve(force[b]);
  return dq;
}

double kkt_residual(const KktSystem& system, const KktSolution& solution) {
  double primal = 0.0, primal_scale = 0.0, dual = 0.0, dual_scale = 0.0;
  std::vector<Vec12> r(system.bodies.size());
  for (std::size_t b = 0; b < r.size(); ++b) {
    r[b] = system.bodies[b].hessian() * solution.dq[b] + system.bodies[b].gradient;
    primal_scale = std::max(primal_scale, system.bodies[b].gradient.norm());
  }
  int offset = 0;
  for (const KktJoint& joint : system.joints) {
    const auto l = solution.lambda.segment(offset, joint.rows());
    CompactVector c = joint.residual;
    double scale = joint.residual.norm();  // the sizes of the terms that should cancel
    if (joint.body1 >= 0) {
      r[joint.body1] += joint.G1.transpose() * l;
      const CompactVector moved = joint.G1 * solution.dq[joint.body1];
      c += moved, scale += moved.norm();
    }
    if (joint.body2 >= 0) {
      r[joint.body2] += joint.G2.transpose() * l;
      const CompactVector moved = joint.G2 * solution.dq[joint.body2];
      c += moved, scale += moved.norm();
    }
    dual = std::max(dual, c.norm());
    dual_scale = std::max(dual_scale, scale);
    offset += joint.rows();
  }
  for (const Vec12& rb : r) primal = std::max(primal, rb.norm());
  const auto relative = [](double value, double scale) { return scale > 0.0 ? value / scale : value; };
  return std::max(relative(primal, primal_scale), relative(dual, dual_scale));
}

}  // namespace affix
