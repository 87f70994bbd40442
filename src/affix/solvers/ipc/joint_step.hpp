#pragma once
// The linear solve of an ipc Newton step with linear joints (settings.ipc.linear_solver), behind one
// seam. Every method finds the same Δq, the minimiser of the Newton model on the joint rows,
//   min ½ΔqᵀHΔq + gᵀΔq   subject to   C Δq = e   (e = C δ, δ the restoration of joint_space.hpp),
// which is the change-of-variables step of Chen 2022 §4.1 written as a KKT system:
//   reduction  the null-space reduction (Nᵀ H N) y = −Nᵀ(g + Hδ), Δq = δ + N y, factorised by CHOLMOD
//              (joint_space.cpp): any joints, but NᵀHN fills in along chains (cost ~ links³);
//   dense      [H Cᵀ; C 0] assembled densely and LU-factorised: the reference for small systems;
//   tree       the joint forest (joint_forest.hpp) solved body by body (tree_kkt.hpp, He 2026 §5.3),
//              linear in the bodies; H's couplings between bodies that are not parent and child (contact
//              across the tree, between trees) are brought in by conjugate gradients preconditioned by
//              that tree solve (constraint preconditioning, Gould, Hribar & Nocedal 2001): every iterate
//              satisfies C Δq = e, and the iteration ends in at most rank(H − H_T) + 1 steps in exact
//              arithmetic (H − H_T: those couplings alone), a few per contact pair.
// `automatic` takes tree when the rows form a forest with no dependent rows, else reduction.
#include <vector>

#include "affix/solvers/ipc/joint_solver_kind.hpp"
#include "affix/solvers/ipc/tree_kkt.hpp"

namespace affix {

/// y = H x for a BlockHessian (both triangles).
void multiply(const BlockHessian& H, const VecX& x, VecX& y);

/// The tree step with its preconditioned iteration (header).
class TreeStep {
 public:
  struct Report {
    int iterations = 0;      ///< conjugate-gradient steps after the first tree solve (of the island
                             ///< that took the most: islands iterate side by side, each on its own)
    bool converged = true;
  };
  /// Stop an island when its rᵀM r ≤ tolerance² × its step's energy scale |Δq₀ᵀHΔq₀| (r the residual,
  /// M the tree solve, both over the island's bodies): a relative error of about `tolerance` in H's norm. The residual is kept free of its
  /// component along the rows' forces Cᵀλ (the "residual update" of Gould, Hribar & Nocedal 2001), which
  /// the projection removes anyway but which would otherwise dominate r and, by cancellation, cap the
  /// attainable accuracy near √ε.
  static constexpr double kTolerance = 1e-12;
  static constexpr int kMaxIterations = 100;

  TreeStep(const JointForest& forest, const DofLayout& layout, const std::vector<SparseRow>& rows)
      : tree_(forest, layout, rows), rows_(rows) {}

  /// Δq for H, g and e; false when a pivot of the tree solve is not positive definite or the
  /// iteration did not converge (`report` says which).
  bool solve(const BlockHessian& H, const VecX& g, const VecX& e, VecX& dq);
  const Report& report() const { return report_; }
  const TreeKkt& tree() const { return tree_; }

 private:
  /// r += Cᵀλ.
  void add_row_forces(const VecX& lambda, VecX& r) const;
  /// island_of_[b]: b's island (forest edges and H's non-zero couplings), numbered from 0.
  void label_islands(const BlockHessian& H);
  /// out[k] = Σ over island k's bodies of aᵀb.
  void island_dots(const VecX& a, const VecX& b, std::vector<double>& out) const;

  TreeKkt tree_;
  std::vector<SparseRow> rows_;
  Report report_;
  VecX r_, s_, d_, Hd_, zero_, lambda_;  // reused between solves
  std::vector<int> island_of_, island_index_;  // island_index_: scratch (each body's root)
  int island_count_ = 0;
  std::vector<double> scale_, rz_, rz_next_, curvature_;  // per island
};

/// The dense KKT step (header: `dense`); false when the LU's residual shows the system singular.
bool dense_kkt_step(const BlockHessian& H, const VecX& g, const std::vector<SparseRow>& rows, const VecX& e,
                    VecX& dq);

}  // namespace affix
