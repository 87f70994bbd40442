#include "affix/solvers/mabd/dual_solver.hpp"

#include <algorithm>
#include <string>

#include "affix/error.hpp"
#include "affix/solvers/mabd/ball_brackets.hpp"

namespace affix {
namespace {

constexpr double kRegularisation = 1e-10;  // the direct solver's δ relative to D's largest diagonal entry

/// D's largest diagonal entry, Σ_b G_jb,r H_b⁻¹ G_jb,rᵀ over each joint row r (one solve per row).
double largest_dual_diagonal(const KktSystem& system) {
  double largest = 0.0;
  for (const KktJoint& joint : system.joints) {
    if (system.brackets && joint.ball() && joint.G1.rows() + joint.G2.rows() == 0) {  // rows not formed
      Mat3 d = Mat3::Zero();
      const auto add = [&](int body, int bracket) {
        const PointBracket& p = (*system.brackets)[bracket];
        d += ball_block(system.bodies[body], p, p, bracket_middle(p, p));
      };
      if (joint.body1 >= 0) add(joint.body1, joint.bracket1);
      if (joint.body2 >= 0) add(joint.body2, joint.bracket2);
      largest = std::max(largest, d.diagonal().maxCoeff());
      continue;
    }
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
  const std::string body = "body " + std::to_string(component.bodies.front());
  if (kind == DualSolverKind::chain) {
    why = component.busy_body >= 0
              ? "body " + std::to_string(component.busy_body) + " is moved by more than 2 joints"
              : "joint " + std::to_string(component.cycle_joint) + " closes a loop";
  } else if (kind == DualSolverKind::loop && component.cycles > kMaxLoopBreakers) {
    why = "the group of " + body + " has " + std::to_string(component.cycles) + " loops";
  } else if (kind == DualSolverKind::tree && component.cycle_joint >= 0) {
    why = "joint " + std::to_string(component.cycle_joint) + " closes a loop";
  } else {
    why = "body " + std::to_string(component.overfull_body) +
          " has more than 12 rows in its parent and unary joints (redundant rows)";
  }
  const std::string needs = kind == DualSolverKind::loop
                                ? "a chain, a tree or at most " + std::to_string(kMaxLoopBreakers) +
                                      " loops on one"
                                : std::string("a ") + dual_solver_name(kind);
  return std::string("\"") + dual_solver_name(kind) + "\" needs every group of jointed bodies to be " + needs +
         ", but " + why;
}

}  // namespace

const char* dual_solver_name(DualSolverKind kind) {
  switch (kind) {
    case DualSolverKind::automatic: return "automatic";
    case DualSolverKind::direct: return "direct";
    case DualSolverKind::chain: return "chain";
    case DualSolverKind::tree: return "tree";
    case DualSolverKind::loop: return "loop";
    case DualSolverKind::gauss_seidel: return "gauss_seidel";
  }
  return "?";
}

std::optional<DualSolverKind> dual_solver_from_name(std::string_view name) {
  for (DualSolverKind kind : {DualSolverKind::automatic, DualSolverKind::direct, DualSolverKind::chain,
                              DualSolverKind::tree, DualSolverKind::loop, DualSolverKind::gauss_seidel})
    if (name == dual_solver_name(kind)) return kind;
  return std::nullopt;
}

DualSolver::Method DualSolver::method(std::size_t c, DualSolverKind kind) const {
  const JointComponent& component = graph_->components()[c];
  if (component.joints.empty()) return Method::none;
  const Method chain = ball_fits_[c] ? Method::ball_chain : Method::chain;
  const bool breakable = component.spanning_tree_fits && component.cycles <= kMaxLoopBreakers;
  switch (kind) {
    case DualSolverKind::chain:
      if (!component.is_chain) throw InputError(not_structured(component, kind));
      return chain;
    case DualSolverKind::tree:
      if (!component.is_tree) throw InputError(not_structured(component, kind));
      return Method::tree;
    case DualSolverKind::loop:
      if (!component.is_chain && !component.is_tree && !breakable) throw InputError(not_structured(component, kind));
      break;
    case DualSolverKind::direct: return Method::direct;
    case DualSolverKind::gauss_seidel: return Method::gauss_seidel;
    case DualSolverKind::automatic: break;
  }
  if (component.is_chain) return chain;
  if (component.is_tree) return Method::tree;
  // Loops: forced only. With the chain and tree solvers refactorising per right-hand side, the Schur
  // complement costs (rows cut + 2) of their solves, measured 3–10× CHOLMOD on 10,000 bodies.
  if (kind == DualSolverKind::loop) return Method::loop;
  // Gauss–Seidel is forced only: on a stiff net it did not converge in 20,000 sweeps (dual_solver.hpp).
  return Method::direct;
}

void DualSolver::classify(const KktSystem& system, DualSolverKind kind) {
  const bool known = graph_ && system.structure != 0 && system.structure == structure_;  // (kkt_system.hpp)
  if (!known && (!graph_ || !graph_->describes(system))) {
    graph_.emplace(system), ++classifications_;
    system.dual_offsets(offsets_);  // the row counts are the graph's: kept while it describes the system
    loops_.clear(), loops_.resize(graph_->components().size());
    ball_chains_.clear(), ball_chains_.resize(graph_->components().size());
    ball_fits_of_ = nullptr, ball_fits_.clear();
    previous_lambda_.resize(0);
  }
  structure_ = system.structure;  // graph_ describes it now
  if (ball_fits_.empty() || ball_fits_of_ != system.brackets) {  // the brackets are the run's: read once
    ball_fits_.clear();
    for (const JointComponent& component : graph_->components())
      ball_fits_.push_back(component.is_chain && BallChain::fits(system, component.joints));
    ball_fits_of_ = system.brackets;
    for (auto& chain : ball_chains_) chain.reset();
  }
  counts_ = {};
  methods_.clear();
  for (std::size_t c = 0; c < graph_->components().size(); ++c) {  // throws before any work
    const Method m = method(c, kind);
    methods_.push_back(m);
    counts_.chains += m == Method::chain || m == Method::ball_chain, counts_.trees += m == Method::tree;
    counts_.loops += m == Method::loop, counts_.gauss_seidel += m == Method::gauss_seidel;
    counts_.direct += m == Method::direct;
  }
}

bool DualSolver::needs_rows(const KktSystem& system, DualSolverKind kind) {
  classify(system, kind);
  classified_ = &system, classified_kind_ = kind;
  const std::vector<JointComponent>& components = graph_->components();
  for (std::size_t c = 0; c < components.size(); ++c)
    if (!components[c].joints.empty() && methods_[c] != Method::ball_chain) return true;
  return false;
}

const KktSolution& DualSolver::solve(const KktSystem& system, DualSolverKind kind, const GaussSeidelLimits& limits) {
  if (classified_ != &system || classified_kind_ != kind) classify(system, kind);  // needs_rows's (header)
  classified_ = nullptr;
  report_ = {};
  if (counts_.chains + counts_.trees + counts_.loops + counts_.gauss_seidel == 0) {  // no need to split
    solution_ = direct_.solve(system);
    regularised_ = direct_.regularised();
    previous_lambda_ = solution_.lambda;
    return solution_;
  }

  KktSolution& solution = solution_;
  solution.dq.resize(system.bodies.size());
  solution.lambda.setZero(offsets_.back());
  for (const JointComponent& component : graph_->components())
    if (component.joints.empty())
      for (int b : component.bodies) solution.dq[b] = -system.bodies[b].solve(system.bodies[b].gradient);

  regularised_ = false;
  if (!solve_structured(system, limits, 0.0, solution)) {
    const double shift = kRegularisation * largest_dual_diagonal(system);
    regularised_ = true;
    if (!(shift > 0.0) || !solve_structured(system, limits, shift, solution))
      throw SimulationError("the joints' dual matrix G H⁻¹ Gᵀ is not positive semi-definite");
  }
  solve_direct_part(system, solution);
  previous_lambda_ = solution.lambda;
  return solution;
}

bool DualSolver::solve_structured(const KktSystem& system, const GaussSeidelLimits& limits, double shift,
                                  KktSolution& solution) {
  // The chains' and Gauss–Seidel's blocks and responses come from the dual matrix, their right-hand
  // sides from Δq_free.
  const std::vector<JointComponent>& components = graph_->components();
  bool assembled = false;
  for (std::size_t c = 0; c < components.size(); ++c) {
    if (methods_[c] != Method::chain && methods_[c] != Method::ball_chain && methods_[c] != Method::gauss_seidel)
      continue;
    if (methods_[c] == Method::ball_chain) continue;  // takes its free steps in its own passes
    if (!assembled) dual_.assemble(system), free_.resize(system.bodies.size()), assembled = true;
    for (int b : components[c].bodies) free_[b] = -system.bodies[b].solve(system.bodies[b].gradient);
  }
  report_ = {};
  const VecX* warm = previous_lambda_.size() == solution.lambda.size() ? &previous_lambda_ : nullptr;
  for (std::size_t c = 0; c < components.size(); ++c) {
    const JointComponent& component = components[c];
    switch (methods_[c]) {
      case Method::chain:
        if (!thomas_.solve(dual_, component.joints, offsets_, free_, shift, solution)) return false;
        break;
      case Method::ball_chain:
        if (!ball_chains_[c]) ball_chains_[c] = std::make_unique<BallChain>(system, component.joints);
        if (!ball_chains_[c]->solve(system, component.joints, offsets_, shift, solution)) return false;
        break;
      case Method::tree:
        if (!aba_.solve(system, *graph_, component, offsets_, shift, solution)) return false;
        break;
      case Method::loop:
        if (!loops_[c]) loops_[c] = std::make_unique<LoopSchur>(system, component);
        if (!loops_[c]->solve(system, offsets_, shift, solution)) return false;
        break;
      case Method::gauss_seidel: {
        if (!gauss_seidel_.solve(dual_, component.joints, offsets_, free_, shift, limits, warm, solution))
          return false;
        const GaussSeidelReport& r = gauss_seidel_.report();
        report_.sweeps = std::max(report_.sweeps, r.sweeps);
        report_.residual = std::max(report_.residual, r.residual);
        report_.converged = report_.converged && r.converged;
        break;
      }
      case Method::none:
      case Method::direct: break;
    }
  }
  return true;
}

void DualSolver::solve_direct_part(const KktSystem& system, KktSolution& solution) {
  // The loops and graphs as one smaller system for the direct solver.
  std::vector<int> local(system.bodies.size(), -1), bodies, joints;
  const std::vector<JointComponent>& components = graph_->components();
  for (std::size_t c = 0; c < components.size(); ++c) {
    if (methods_[c] != Method::direct) continue;
    for (int b : components[c].bodies) local[b] = static_cast<int>(bodies.size()), bodies.push_back(b);
    joints.insert(joints.end(), components[c].joints.begin(), components[c].joints.end());
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
