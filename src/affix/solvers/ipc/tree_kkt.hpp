#pragma once
// The equality-constrained Newton step of a joint forest (joint_forest.hpp) solved body by body in
// linear time: ABD-ABA (He 2026 §5.3, Alg. 2; derivation in mabd/abd_aba.hpp) generalised to the ipc
// solver's Hessian, whose blocks are not rotated constants and which has coupling blocks H_bp along the
// joints (limit barriers, penalties, Rayleigh damping). It solves
//   min ½ΔqᵀH_TΔq + aᵀΔq   subject to   C Δq = e,
// H_T = H's diagonal blocks and its coupling blocks on forest edges (couplings between other pairs are
// left to the caller: joint_step.hpp). Derivation (the paper's text lost its equations; this is block
// elimination of the KKT matrix with one (12 + m_b)-pivot per body, leaves first):
// Body b with parent p owns the rows G_c Δq_b + G_p Δq_p = e_b (G_p = 0 on unary rows). Once its subtree
// is eliminated, b carries an articulated pair (A_b, a_b), starting at (H_bb, a_b), and the coupling
// H_bp. For a given Δq_p its local KKT
//   A Δq_b + Gcᵀλ = −a − H_bp Δq_p,   Gc Δq_b = e − Gp Δq_p
// has, with Y = A⁻¹Gcᵀ, S = Gc Y, F = A⁻¹H_bp, Ĝ = Gp − Gc F, K = S⁻¹Ĝ and T = F + Y K,
//   λ = u + K Δq_p,   Δq_b = x⁰ − T Δq_p,   u = S⁻¹(Gc x̂ − e),   x̂ = −A⁻¹a,   x⁰ = x̂ − Y u,
// and eliminating (Δq_b, λ) leaves on the parent (the Schur complement of b's pivot [A Gcᵀ; Gc 0])
//   A_p ← A_p − H_pb F + Ĝᵀ K,   a_p ← a_p + H_pb x⁰ + Gpᵀ u.
// (Check: G_c T = G_p, so Δq_b satisfies b's rows for every Δq_p; H_bp = 0 gives ABD-ABA's
// H^A_p += G_pᵀS⁻¹G_p.) A_b stays positive definite: it is the Hessian of the minimum of a positive
// definite quadratic over b's subtree as a function of Δq_b, and b's rows have full rank on b.
// Downward, roots first: Δq_b = x⁰ (root) or x⁰ − T Δq_p.
// factorize() keeps A⁻¹ (explicit: a right-hand side then costs a matrix–vector product instead of
// two 12×12 triangular solves; the rows stay exact, since they are imposed through S, whose Cholesky
// factor is kept and solved with), Y, K and T, so one factorisation serves many
// right-hand sides (the preconditioned iteration of joint_step.hpp); its storage is sized once per
// forest. A body with 3 or 6 rows (a ball joint, a hinge: chains, trees, ragdolls' cone twists) is
// eliminated with fixed-size products, whose loops the compiler unrolls; other counts take the same
// steps with run-time sizes.
#include <vector>

#include <Eigen/Cholesky>

#include "affix/solvers/ipc/joint_forest.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

class TreeKkt {
 public:
  TreeKkt(const JointForest& forest, const DofLayout& layout, const std::vector<SparseRow>& rows);

  /// Eliminates with H's diagonal blocks and its couplings on forest edges; false when a pivot is not
  /// numerically positive definite (linear/spd_factor.hpp).
  bool factorize(const BlockHessian& H);
  /// Δq minimising ½ΔqᵀH_TΔq + aᵀΔq subject to C Δq = e (e: one entry per row), with the last
  /// factorisation; and, when `lambda` is given, the rows' multipliers: H_TΔq + Cᵀλ = −a.
  void solve(const VecX& a, const VecX& e, VecX& dq, VecX* lambda = nullptr);

  const JointForest& forest() const { return forest_; }
  /// Whether every body's rows have full rank on its own DOFs (G_c G_cᵀ numerically positive
  /// definite). Rows of a forest are then independent: ordered roots first, C is block triangular with
  /// those full-rank blocks on its diagonal. Otherwise some rows are redundant and the tree solve's
  /// pivots S are singular.
  bool rows_independent() const { return independent_; }
  /// A move δ with C δ = r, body by body from the roots: δ_b = G_c⁺(r_b − G_p δ_p), G_c⁺ = G_cᵀ(G_cG_cᵀ)⁻¹
  /// (least-norm on each body), zero on bodies without rows. Needs rows_independent().
  void restoration(const VecX& r, VecX& delta) const;

 private:
  using Rows = Eigen::Matrix<double, Eigen::Dynamic, 12, Eigen::RowMajor, 12, 12>;
  using Columns = Eigen::Matrix<double, 12, Eigen::Dynamic, Eigen::ColMajor, 12, 12>;
  using Square = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 12, 12>;
  using Small = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 12, 1>;
  struct Node {
    Rows Gc, Gp;             // constant: b's rows on b and on its parent
    Eigen::LLT<Square> GGt;  // G_c G_cᵀ, for the restoration
    Mat12 A_inverse;         // of the articulated block A_b
    Columns Y;               // A⁻¹Gcᵀ
    Square S_lower;          // L of S = Gc A⁻¹ Gcᵀ = L Lᵀ (solved, not inverted: C Δq = e to round-off)
    Rows K;                  // λ = u + K Δq_p
    Mat12 T;                 // Δq_b = x⁰ − T Δq_p
    Mat12 Hbp;               // H's coupling (b, parent), when `coupled`
    bool coupled = false;
  };
  /// Eliminates body b (A_b in articulated_[b]) into its parent (header's upward pass), M its row
  /// count (Eigen::Dynamic: any). False when A_b or S is not numerically positive definite.
  template <int M>
  bool eliminate(int b);

  JointForest forest_;
  std::vector<Node> nodes_;
  std::vector<Mat12> articulated_;
  std::vector<Vec12> gradient_;  // a_b during solve's upward pass, then x⁰
  std::vector<Small> u_;         // u_b of the upward pass, for the multipliers
  int dofs_ = 0;
  bool independent_ = true;
};

}  // namespace affix
