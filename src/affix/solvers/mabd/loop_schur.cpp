#include "affix/solvers/mabd/loop_schur.hpp"

#include <algorithm>

#include "affix/solvers/mabd/spd_factor.hpp"

namespace affix {
namespace {

using SchurMatrix = Eigen::MatrixXd;

int local_index(const std::vector<int>& bodies, int body) {
  if (body < 0) return -1;
  return static_cast<int>(std::lower_bound(bodies.begin(), bodies.end(), body) - bodies.begin());
}

/// The component's spanning tree (header) as a system of its own: local body indices, the joints that
/// are not cut, in ascending order. Values are filled in by refresh().
KktSystem spanning_part(const KktSystem& system, const JointComponent& component, std::vector<int>& tree_joints) {
  KktSystem part;
  part.bodies.assign(component.bodies.size(), KktBody{nullptr, CoRotation(Mat3::Identity(), RotationExtraction::polar)});
  for (int j : component.joints)
    if (!std::binary_search(component.cut_joints.begin(), component.cut_joints.end(), j)) tree_joints.push_back(j);
  std::sort(tree_joints.begin(), tree_joints.end());
  for (int j : tree_joints) {
    KktJoint joint;
    joint.body1 = local_index(component.bodies, system.joints[j].body1);
    joint.body2 = local_index(component.bodies, system.joints[j].body2);
    joint.residual = CompactVector::Zero(system.joints[j].rows());
    part.joints.push_back(joint);
  }
  return part;
}

}  // namespace

LoopSchur::LoopSchur(const KktSystem& system, const JointComponent& component)
    : bodies_(component.bodies),
      cut_joints_(component.cut_joints),
      part_(spanning_part(system, component, tree_joints_)),
      part_graph_(part_),
      part_offsets_(part_.dual_offsets()) {
  for (int j : cut_joints_) {
    cut_sides_.emplace_back(local_index(bodies_, system.joints[j].body1), local_index(bodies_, system.joints[j].body2));
    schur_rows_ += system.joints[j].rows();
  }
}

void LoopSchur::clear_forces() {
  for (KktBody& body : part_.bodies) body.gradient.setZero();
  for (KktJoint& joint : part_.joints) joint.residual.setZero();
}

bool LoopSchur::solve_tree(double shift, KktSolution& out) {
  const JointComponent& tree = part_graph_.components().front();
  out.dq.resize(part_.bodies.size());
  out.lambda.resize(part_offsets_.back());
  if (tree.joints.empty()) {  // one body whose only joints were cut (self-joints): it moves freely
    out.dq[0] = -part_.bodies[0].solve(part_.bodies[0].gradient);
    return true;
  }
  if (!tree.is_chain) return aba_.solve(part_, part_graph_, tree, part_offsets_, shift, out);
  // Block Thomas takes Δq_free = −H⁻¹g; a unit force moves at most two bodies, so skip the zero ones.
  free_.resize(part_.bodies.size());
  for (std::size_t b = 0; b < free_.size(); ++b) {
    const Vec12& g = part_.bodies[b].gradient;
    free_[b] = g.isZero(0.0) ? Vec12::Zero() : Vec12(-part_.bodies[b].solve(g));
  }
  // The responses H⁻¹Gᵀ do not depend on the forces: computed once per solve (refresh() clears them).
  if (!dual_) dual_.emplace(part_);
  return thomas_.solve(*dual_, tree.joints, part_offsets_, free_, shift, out);
}

bool LoopSchur::solve(const KktSystem& system, const std::vector<int>& offsets, double shift,
                      KktSolution& solution) {
  const int n_cut = static_cast<int>(cut_joints_.size());
  // G_C Δq: the cut rows of a primal step (header), stacked in cut order.
  const auto cut_rows = [&](const std::vector<Vec12>& dq) {
    VecX v(schur_rows_);
    for (int c = 0, row = 0; c < n_cut; ++c) {
      const KktJoint& joint = system.joints[cut_joints_[c]];
      v.segment(row, joint.rows()) = joint.G1 * dq[cut_sides_[c].first] + joint.G2 * dq[cut_sides_[c].second];
      row += joint.rows();
    }
    return v;
  };
  const auto refresh = [&] {  // the system's current values, the tree's own forces
    dual_.reset();
    for (std::size_t b = 0; b < bodies_.size(); ++b) part_.bodies[b] = system.bodies[bodies_[b]];
    for (std::size_t j = 0; j < tree_joints_.size(); ++j) {
      const KktJoint& joint = system.joints[tree_joints_[j]];
      part_.joints[j].G1 = joint.G1, part_.joints[j].G2 = joint.G2, part_.joints[j].residual = joint.residual;
    }
  };

  // y and Δq⁰: r_C − D_CT y = C_C + G_C Δq⁰ (header).
  refresh();
  if (!solve_tree(shift, base_)) return false;
  VecX s = cut_rows(base_.dq);
  for (int c = 0, row = 0; c < n_cut; ++c) {
    const CompactVector& C = system.joints[cut_joints_[c]].residual;
    s.segment(row, C.size()) += C;
    row += static_cast<int>(C.size());
  }

  // S e = G_C Δq_e for a unit force e on each cut row, + shift.
  SchurMatrix S(schur_rows_, schur_rows_);
  for (int c = 0, column = 0; c < n_cut; ++c) {
    const KktJoint& joint = system.joints[cut_joints_[c]];
    const auto [a1, a2] = cut_sides_[c];
    for (int r = 0; r < joint.rows(); ++r, ++column) {
      clear_forces();
      part_.bodies[a1].gradient -= joint.G1.row(r).transpose();
      part_.bodies[a2].gradient -= joint.G2.row(r).transpose();
      if (!solve_tree(shift, column_)) return false;
      S.col(column) = cut_rows(column_.dq);
    }
  }
  S = 0.5 * (S + S.transpose()).eval();  // symmetric in exact arithmetic
  S.diagonal().array() += shift;
  Eigen::LLT<SchurMatrix> schur;
  if (!factor_spd(schur, S)) return false;
  const VecX lambda_cut = schur.solve(s);

  // Back substitution: the tree solve under the cut joints' forces, g + G_Cᵀλ_C.
  refresh();
  for (int c = 0, row = 0; c < n_cut; ++c) {
    const KktJoint& joint = system.joints[cut_joints_[c]];
    const auto l = lambda_cut.segment(row, joint.rows());
    part_.bodies[cut_sides_[c].first].gradient += joint.G1.transpose() * l;
    part_.bodies[cut_sides_[c].second].gradient += joint.G2.transpose() * l;
    solution.lambda.segment(offsets[cut_joints_[c]], joint.rows()) = l;
    row += joint.rows();
  }
  if (!solve_tree(shift, base_)) return false;
  for (std::size_t b = 0; b < bodies_.size(); ++b) solution.dq[bodies_[b]] = base_.dq[b];
  for (std::size_t j = 0; j < tree_joints_.size(); ++j)
    solution.lambda.segment(offsets[tree_joints_[j]], part_.joints[j].rows()) =
        base_.lambda.segment(part_offsets_[j], part_.joints[j].rows());
  return true;
}

}  // namespace affix
