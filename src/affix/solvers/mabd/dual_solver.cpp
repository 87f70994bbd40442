#include "affix/solvers/mabd/dual_solver.hpp"

#include <algorithm>
#include <string>

#include "affix/error.hpp"

namespace affix {
namespace {

constexpr double kRegularisation = 1e-10;  // the direct solver's δ relative to D's largest diagonal entry

/// D's largest diagonal entry, Σ_b G_jb,r H_b⁻¹ G_jb,rᵀ over each joint row r (one solve per row).
double largest_dual_diagonal(const KktSystem& system) {
  double largest = 0.0;
  for (const KktJoint& joint : system.joints) {
    for (int r = 0; r < joint.rows(); ++r) {
      double d = 0.0;
      const auto add = [&](int body, const Vec12& row) { d += row.dot(system.bodies[body].solve(row)); };
      if (joint.body1 >= 0 && joint.body1 == joint.body2) {
        add(joint.body1, (joint.G1.row(r) + joint.G2.row(r)).transpose());
      } else {
        if (joint.body1 >= 0) add(joint.body1, joint.G1.row(r).transpose());
        if (joint.body2 >= 0) add(joint.body2, joint.G2.row(r).transpose());
      }
      largest = std::max(largest, d);
    }
  }
  return largest;
}

/// Why a group is not what `kind` needs, for the InputError.
std::string not_structured(const JointComponent& component, DualSolverKind kind) {
  std::string why;
  if (kind == DualSolverKind::chain) {
    why = component.busy_body >= 0
              ? "body " + std::to_string(component.busy_body) + " is moved by more than 2 joints"
              : "joint " + std::to_string(component.cycle_joint) + " closes a loop";
  } else if (component.cycle_joint >= 0) {
    why = "joint " + std::to_string(component.cycle_joint) + " closes a loop";
  } else {
    why = "body " + std::to_string(component.overfull_body) +
          " has more than 12 rows in its parent and unary joints (redundant rows)";
  }
  return std::string("\"") + dual_solver_name(kind) + "\" needs every group of jointed bodies to be a " +
         dual_solver_name(kind) + ", but " + why;
}

}  // namespace

const char* dual_solver_name(DualSolverKind kind) {
  switch (kind) {
    case DualSolverKind::automatic: return "automatic";
    case DualSolverKind::direct: return "direct";
    case DualSolverKind::chain: return "chain";
    case DualSolverKind::tree: return "tree";
  }
  return "?";
}

std::optional<DualSolverKind> dual_solver_from_name(std::string_view name) {
  for (DualSolverKind kind : {DualSolverKind::automatic, DualSolverKind::direct, DualSolverKind::chain,
                              DualSolverKind::tree})
    if (name == dual_solver_name(kind)) return kind;
  return std::nullopt;
}

DualSolver::Method DualSolver::method(const JointComponent& component, DualSolverKind kind) const {
  if (component.joints.empty()) return Method::none;
  switch (kind) {
    case DualSolverKind::chain:
      if (!component.is_chain) throw InputError(not_structured(component, kind));
      return Method::chain;
    case DualSolverKind::tree:
      if (!component.is_tree) throw InputError(not_structured(component, kind));
      return Method::tree;
    case DualSolverKind::direct: return Method::direct;
    case DualSolverKind::automatic: break;
  }
  return component.is_chain ? Method::chain : component.is_tree ? Method::tree : Method::direct;
}

KktSolution DualSolver::solve(const KktSystem& system, DualSolverKind kind) {
  if (!graph_ || !graph_->describes(system)) graph_.emplace(system), ++classifications_;
  counts_ = {};
  for (const JointComponent& component : graph_->components()) {  // throws before any work
    const Method m = method(component, kind);
    counts_.chains += m == Method::chain, counts_.trees += m == Method::tree, counts_.direct += m == Method::direct;
  }
  if (counts_.chains + counts_.trees == 0) {  // only loops and graphs, or `direct`: no need to split
    KktSolution solution = direct_.solve(system);
    regularised_ = direct_.regularised();
    return solution;
  }

  offsets_ = system.dual_offsets();
  KktSolution solution;
  solution.dq.resize(system.bodies.size());
  solution.lambda = VecX::Zero(offsets_.back());
  for (const JointComponent& component : graph_->components())
    if (component.joints.empty())
      for (int b : component.bodies) solution.dq[b] = -system.bodies[b].solve(system.bodies[b].gradient);

  regularised_ = false;
  if (!solve_structured(system, kind, 0.0, solution)) {
    const double shift = kRegularisation * largest_dual_diagonal(system);
    regularised_ = true;
    if (!(shift > 0.0) || !solve_structured(system, kind, shift, solution))
      throw SimulationError("the joints' dual matrix G H⁻¹ Gᵀ is not positive semi-definite");
  }
  solve_direct_part(system, kind, solution);
  return solution;
}

bool DualSolver::solve_structured(const KktSystem& system, DualSolverKind kind, double shift,
                                  KktSolution& solution) {
  // The chains' blocks and responses come from the dual matrix, their right-hand sides from Δq_free.
  std::optional<DualMatrix> dual;
  free_.resize(system.bodies.size());
  for (const JointComponent& component : graph_->components()) {
    if (method(component, kind) != Method::chain) continue;
    if (!dual) dual.emplace(system);
    for (int b : component.bodies) free_[b] = -system.bodies[b].solve(system.bodies[b].gradient);
  }
  for (const JointComponent& component : graph_->components()) {
    const Method m = method(component, kind);
    if (m == Method::chain && !thomas_.solve(*dual, component.joints, offsets_, free_, shift, solution))
      return false;
    if (m == Method::tree && !aba_.solve(system, *graph_, component, offsets_, shift, solution)) return false;
  }
  return true;
}

void DualSolver::solve_direct_part(const KktSystem& system, DualSolverKind kind, KktSolution& solution) {
  // The loops and graphs as one smaller system for the direct solver.
  std::vector<int> local(system.bodies.size(), -1), bodies, joints;
  for (const JointComponent& component : graph_->components()) {
    if (method(component, kind) != Method::direct) continue;
    for (int b : component.bodies) local[b] = static_cast<int>(bodies.size()), bodies.push_back(b);
    joints.insert(joints.end(), component.joints.begin(), component.joints.end());
  }
  if (joints.empty()) return;
  std::sort(joints.begin(), joints.end());
  KktSystem part;
  part.bodies.reserve(bodies.size());
  for (int b : bodies) part.bodies.push_back(system.bodies[b]);
  part.joints.reserve(joints.size());
  for (int j : joints) {
    KktJoint joint = system.joints[j];
    joint.body1 = joint.body1 >= 0 ? local[joint.body1] : -1;
    joint.body2 = joint.body2 >= 0 ? local[joint.body2] : -1;
    part.joints.push_back(std::move(joint));
  }
  const KktSolution partial = direct_.solve(part);
  regularised_ = regularised_ || direct_.regularised();
  for (std::size_t i = 0; i < bodies.size(); ++i) solution.dq[bodies[i]] = partial.dq[i];
  for (std::size_t i = 0, row = 0; i < joints.size(); ++i) {
    const int m = system.joints[joints[i]].rows();
    solution.lambda.segment(offsets_[joints[i]], m) = partial.lambda.segment(row, m);
    row += m;
  }
}

}  // namespace affix
