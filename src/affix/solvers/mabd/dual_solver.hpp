#pragma once
// One entry point for the dual-space KKT solve (He 2026 §5), choosing a solver per connected group of
// bodies from the joint graph (joint_graph.hpp):
//   automatic  block Thomas for chains (§5.2), ABD-ABA for trees (§5.3), the direct sparse Cholesky
//              for loops and graphs (§5.4–5.5: the paper's loop Schur complement and graph Gauss-Seidel
//              are not implemented), all loops and graphs solved together as one direct system;
//   direct     the direct solver on the whole system (the reference);
//   chain      block Thomas for every group: an InputError unless each is a chain;
//   tree       ABD-ABA for every group: an InputError unless each is a tree.
// Bodies without joints take Δq_free. A joint with no moving body on either side has G = 0: it moves
// nothing and takes λ = 0 (the direct solver, given the whole system, regularises it to λ = r/δ
// instead). The classification is kept while the system's bodies and joints
// (their sides and row counts) are unchanged: the joint graph does not change during a run.
//
// Redundant rows (D singular, dual_direct.hpp): when a chain's or a tree's solve meets a pivot that is
// not positive definite, every structured group is solved again on D + δI with the direct solver's δ
// (10⁻¹⁰ of D's largest diagonal entry), so all solvers pick the same λ to O(δ).
#include <optional>
#include <string_view>

#include "affix/solvers/mabd/abd_aba.hpp"
#include "affix/solvers/mabd/block_thomas.hpp"
#include "affix/solvers/mabd/dual_direct.hpp"
#include "affix/solvers/mabd/joint_graph.hpp"

namespace affix {

enum class DualSolverKind { automatic, direct, chain, tree };

/// "automatic", "direct", "chain", "tree".
const char* dual_solver_name(DualSolverKind kind);
std::optional<DualSolverKind> dual_solver_from_name(std::string_view name);

class DualSolver {
 public:
  /// Solves the system with `kind` (header). Throws InputError when `kind` is chain or tree and the
  /// joint graph has a group that is not one (the message says which body or joint), SimulationError
  /// when D is not positive semi-definite even regularised.
  KktSolution solve(const KktSystem& system, DualSolverKind kind);

  /// The classification of the last solve's system (null before the first).
  const JointGraph* graph() const { return graph_ ? &*graph_ : nullptr; }
  /// How many times a joint graph was classified (once per distinct system structure).
  int classifications() const { return classifications_; }
  /// Whether the last solve needed the regularisation.
  bool regularised() const { return regularised_; }
  /// How many groups of jointed bodies the last solve gave to each solver.
  struct Counts {
    int chains = 0, trees = 0, direct = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  enum class Method { none, chain, tree, direct };
  Method method(const JointComponent& component, DualSolverKind kind) const;
  bool solve_structured(const KktSystem& system, DualSolverKind kind, double shift, KktSolution& solution);
  void solve_direct_part(const KktSystem& system, DualSolverKind kind, KktSolution& solution);

  std::optional<JointGraph> graph_;
  int classifications_ = 0;
  bool regularised_ = false;
  Counts counts_;
  DualDirectSolver direct_;
  BlockThomas thomas_;
  AbdAba aba_;
  std::vector<int> offsets_;
  std::vector<Vec12> free_;
};

}  // namespace affix
