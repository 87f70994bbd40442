#pragma once
// One Newton step of affine bodies with exact joints, as a KKT system (He 2026 Eq. 26; its footnote's
// −C in the second row):
//   [H  Gᵀ] [Δq]   [−g]
//   [G  0 ] [λ ] = [−C]
// H is block diagonal, one 12×12 block per moving body, each applied through its pre-factorised
// co-rotated matrix (corotated_body.hpp); G stacks the joints' compact rows (compact_rows.hpp).
// Eliminating the primal (Eq. 27–28):
//   Δq = Δq_free − H⁻¹Gᵀλ,  Δq_free = −H⁻¹g,  and  D λ = C + G Δq_free  with the dual matrix D = G H⁻¹ Gᵀ.
// D has one m_j × m_j block per joint and a coupling block for each pair of joints that share a moving
// body: D_jk = Σ_b G_jb H_b⁻¹ G_kbᵀ over the bodies b that j and k both move. The solvers of this folder
// (direct, block Thomas for chains, ABD-ABA for trees) all solve this one system and agree to round-off.
#include <cstdint>
#include <vector>

#include "affix/joints/compact_rows.hpp"
#include "affix/solvers/mabd/corotated_body.hpp"

namespace affix {

/// A joint side's rows G (m × 12), on the heap with exactly m rows: a ball joint's 3 rows take 288 B
/// rather than the 576 B of a CompactBlock's fixed 6-row capacity (0.5 GB less for 10⁶ ball joints, both
/// sides). Allocated when a step first builds the joint and reused after: its row count changes only
/// when a limit row switches on or off.
using JointRows = Eigen::Matrix<double, Eigen::Dynamic, 12, Eigen::RowMajor>;

/// A moving body's block of H and its part of g.
struct KktBody {
  /// A body in penalty contact (penalty_contact.hpp): H = Q H₀ Qᵀ + h²∇²E is no longer a rotated
  /// constant, so it is factorised densely for this iteration (12×12 LLT) and used instead.
  struct Dense {
    Mat12 matrix;
    Eigen::LLT<Mat12> factor;
  };

  KktBody(const CorotatedFactor* factor, const CoRotation& rotation, const Vec12& gradient = Vec12::Zero())
      : factor(factor), rotation(rotation), gradient(gradient) {}

  // In the order the solves read them: the ball chain's back substitution reads the factor, `dense` and
  // the rotation's R and K, the first three of a KktBody's six cache lines (it read five of them).
  const CorotatedFactor* factor = nullptr;  ///< H₀, shared between bodies with the same mass and material
  const Dense* dense = nullptr;
  CoRotation rotation;                      ///< Q at the current iterate: H = Q H₀ Qᵀ
  Vec12 gradient = Vec12::Zero();           ///< g

  Vec12 solve(const Vec12& x) const { return dense ? Vec12(dense->factor.solve(x)) : rotation.solve(*factor, x); }  ///< H⁻¹ x
  Mat12 hessian() const { return dense ? dense->matrix : rotation.hessian(*factor); }  ///< H in full
  /// H⁻¹ Gᵀ for a joint side's rows G (12 × rows).
  Columns12 solve_rows(const JointRows& G) const {
    return dense ? Columns12(dense->factor.solve(G.transpose())) : rotation.solve(*factor, Columns12(G.transpose()));
  }
};

/// A joint's rows on its (at most two) moving bodies. A side on the world or on a fixed or kinematic
/// body has index −1: that body's motion over the step is known and already in `residual`.
struct KktJoint {
  int body1 = -1, body2 = -1;  ///< indices into KktSystem::bodies
  JointRows G1, G2;            ///< m × 12 each; only the sides with a body are read
  CompactVector residual;      ///< C at the current iterate
  /// A ball joint's sides as constant brackets (ball_brackets.hpp): G1 = J(P₁), G2 = −J(P₂), P and the
  /// constants in KktSystem::brackets; −1 for a side without a moving body, and for other joints. When
  /// every joint a solve needs is one (DualSolver::needs_rows), G1 and G2 are not formed at all.
  int bracket1 = -1, bracket2 = -1;
  int rows() const { return static_cast<int>(residual.size()); }
  /// Whether the joint's moving sides are ball brackets.
  bool ball() const { return (bracket1 >= 0 || body1 < 0) && (bracket2 >= 0 || body2 < 0) && (body1 >= 0 || body2 >= 0); }
};

class BallBrackets;

struct KktSystem {
  std::vector<KktBody> bodies;
  std::vector<KktJoint> joints;
  /// The run's ball brackets, or null: then every joint goes through its rows G (the generic path).
  const BallBrackets* brackets = nullptr;
  /// A number that names the joint graph (every joint's sides and row count, and the body count): a
  /// builder that keeps its system from one iteration to the next gives it a new_structure() whenever
  /// any of these change, and the dual solver then trusts an equal number instead of comparing every
  /// joint (JointGraph::describes, 1.4 % of a 10⁵-link step). 0: unknown, always compared.
  std::uint64_t structure = 0;

  /// Σ m_j, the size of D; joint j's rows start at dual_offsets()[j].
  std::vector<int> dual_offsets() const;
  void dual_offsets(std::vector<int>& offsets) const;  ///< the same, into existing storage
  /// Δq_free = −H⁻¹g per body.
  std::vector<Vec12> free_steps() const;
};

/// A structure number no system has had (KktSystem::structure), unique in the process.
std::uint64_t new_structure();

struct KktSolution {
  std::vector<Vec12> dq;  ///< per body
  VecX lambda;            ///< per joint, stacked in joint order
};

/// dq of the bodies that `joints` move set to their free steps, before a structured solver subtracts
/// each joint's H⁻¹Gᵀλ (Eq. 27, 41).
void start_from_free_steps(const KktSystem& system, const std::vector<int>& joints,
                           const std::vector<Vec12>& free_steps, std::vector<Vec12>& dq);

/// Δq = Δq_free − H⁻¹Gᵀλ for a given λ (Eq. 27).
std::vector<Vec12> primal_steps(const KktSystem& system, const std::vector<Vec12>& free_steps, const VecX& lambda);

/// How far a solution is from satisfying Eq. 26: the largest body residual ‖HΔq + Gᵀλ + g‖ relative
/// to the largest ‖g‖, or the largest joint residual ‖GΔq + C‖ relative to the size of its terms.
double kkt_residual(const KktSystem& system, const KktSolution& solution);

}  // namespace affix
