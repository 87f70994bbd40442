#pragma once
// One entry point for the dual-space KKT solve (He 2026 §5), choosing a solver per connected group of
// bodies from the joint graph (joint_graph.hpp):
//   automatic     block Thomas for chains (§5.2), ABD-ABA for trees (§5.3), and for loops and graphs
//                 (§5.4–5.5) the direct sparse Cholesky, the direct groups solved together as one direct
//                 system. Never Gauss–Seidel, although §5.5 offers it where a factorisation is
//                 "prohibitive": on D of stiff bodies it does not converge (a 60-link net forced to it
//                 hit its cap on 99 of 100 steps, 3.3 cm from the direct solve at 1 s, and on as many
//                 with 20,000 sweeps a solve), so it is a forced choice whose capped steps count in
//                 hit_iteration_cap. The loop Schur
//                 complement is not automatic: each of its columns is a whole chain or tree solve here
//                 (the structured solvers do not keep their factors), which made it 3–10× slower than
//                 CHOLMOD on 10,000-body chains and trees with 1–4 loops;
//   direct        the direct solver on the whole system (the reference);
//   chain         block Thomas for every group: an InputError unless each is a chain;
//   tree          ABD-ABA for every group: an InputError unless each is a tree;
//   loop          chains and trees as automatic, the loop Schur complement over the chain or tree solve
//                 (§5.4, loop_schur.hpp) for the rest: an InputError unless each has at most
//                 kMaxLoopBreakers cycles and a spanning tree ABD-ABA takes;
//   gauss_seidel  Gauss–Seidel for every group with joints (any structure), to the given limits.
// Bodies without joints take Δq_free. A joint with no moving body on either side has G = 0: it moves
// nothing and takes λ = 0 (the direct solver, given the whole system, regularises it to λ = r/δ
// instead). The classification is kept while the system's bodies and joints
// (their sides and row counts) are unchanged: the joint graph does not change during a run; so is the
// last λ, Gauss–Seidel's warm start.
//
// Redundant rows (D singular, dual_direct.hpp): when a chain's, a tree's or a loop's solve meets a pivot
// that is not positive definite, every structured group is solved again on D + δI with the direct
// solver's δ (10⁻¹⁰ of D's largest diagonal entry), so all solvers pick the same λ to O(δ).
#include <memory>
#include <optional>
#include <string_view>

#include "affix/solvers/mabd/abd_aba.hpp"
#include "affix/solvers/mabd/ball_chain.hpp"
#include "affix/solvers/mabd/block_thomas.hpp"
#include "affix/solvers/mabd/dual_direct.hpp"
#include "affix/solvers/mabd/dual_gauss_seidel.hpp"
#include "affix/solvers/mabd/joint_graph.hpp"
#include "affix/solvers/mabd/loop_schur.hpp"

namespace affix {

enum class DualSolverKind { automatic, direct, chain, tree, loop, gauss_seidel };

/// The most cycles a group may have for the loop Schur complement: S has up to 6 rows per cycle, and
/// each row costs one chain or tree solve (loop_schur.hpp).
constexpr int kMaxLoopBreakers = 4;

/// "automatic", "direct", "chain", "tree", "loop", "gauss_seidel".
const char* dual_solver_name(DualSolverKind kind);
std::optional<DualSolverKind> dual_solver_from_name(std::string_view name);

class DualSolver {
 public:
  /// Solves the system with `kind` (header); `limits` for the groups given to Gauss–Seidel. Throws
  /// InputError when `kind` is chain, tree or loop and the joint graph has a group that does not fit
  /// (the message says which body or joint), SimulationError when D is not positive semi-definite even
  /// regularised.
  /// The solution stays valid until the next solve, which reuses its memory.
  const KktSolution& solve(const KktSystem& system, DualSolverKind kind, const GaussSeidelLimits& limits = {});

  /// Whether solving this system with `kind` reads any ball joint's rows G: false when every group of
  /// jointed bodies is a chain of ball joints in brackets (ball_chain.hpp), which needs none, so the
  /// caller need not form them. Reads only the system's structure (sides, row counts, brackets).
  /// A solve of the same system and kind right after it, its structure unchanged in between (the
  /// rows G may be formed), reuses this classification instead of checking the graph again (1.5 % of
  /// a 10⁵-link chain's step).
  bool needs_rows(const KktSystem& system, DualSolverKind kind);

  /// The classification of the last solve's system (null before the first).
  const JointGraph* graph() const { return graph_ ? &*graph_ : nullptr; }
  /// How many times a joint graph was classified (once per distinct system structure).
  int classifications() const { return classifications_; }
  /// Whether the last solve needed the regularisation.
  bool regularised() const { return regularised_; }
  /// How many groups of jointed bodies the last solve gave to each solver.
  struct Counts {
    int chains = 0, trees = 0, loops = 0, gauss_seidel = 0, direct = 0;
  };
  const Counts& counts() const { return counts_; }
  /// The last solve's Gauss–Seidel groups: the most sweeps, the worst residual, whether all converged.
  const GaussSeidelReport& gauss_seidel() const { return report_; }

 private:
  enum class Method { none, chain, ball_chain, tree, loop, gauss_seidel, direct };
  Method method(std::size_t c, DualSolverKind kind) const;
  /// The joint graph and each group's method for this system (the graph kept while it describes it).
  void classify(const KktSystem& system, DualSolverKind kind);
  bool solve_structured(const KktSystem& system, const GaussSeidelLimits& limits, double shift,
                        KktSolution& solution);
  void solve_direct_part(const KktSystem& system, KktSolution& solution);

  std::optional<JointGraph> graph_;
  std::uint64_t structure_ = 0;  // the KktSystem::structure graph_ was last found to describe
  const KktSystem* classified_ = nullptr;  // needs_rows's system, for the solve that follows it
  DualSolverKind classified_kind_ = DualSolverKind::automatic;
  int classifications_ = 0;
  bool regularised_ = false;
  Counts counts_;
  GaussSeidelReport report_;
  DualDirectSolver direct_;
  BlockThomas thomas_;
  AbdAba aba_;
  DualGaussSeidel gauss_seidel_;
  std::vector<std::unique_ptr<LoopSchur>> loops_;  // per component, made on its first loop solve
  std::vector<std::unique_ptr<BallChain>> ball_chains_;  // per component, made on its first ball-chain solve
  std::vector<char> ball_fits_;                 // per component: BallChain::fits, for ball_fits_of_
  const BallBrackets* ball_fits_of_ = nullptr;  // the brackets ball_fits_ was read with
  VecX previous_lambda_;                           // the last solve's λ, while the graph is unchanged
  std::vector<Method> methods_;  // per component, for the current solve
  std::vector<int> offsets_;
  std::vector<Vec12> free_;
  DualMatrix dual_;        // the chains' and Gauss–Seidel's, reassembled per solve in the same memory
  KktSolution solution_;
};

}  // namespace affix
