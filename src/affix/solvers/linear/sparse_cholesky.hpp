#pragma once
// Sparse direct solve of a BlockHessian with CHOLMOD (supernodal LLᵀ, AMD/METIS ordering), part by
// part (block_partition.hpp): held blocks (fixed bodies, converged islands) are not factorised, a lone
// block is factorised densely, and every other independent part by CHOLMOD on its own, with its
// symbolic analysis kept while that part's block pattern is unchanged. So a Newton iteration pays for
// the islands still iterating only, and a contact pair that appears in one island re-analyses that
// island alone. The general entry point (a whole sparse matrix) is one CHOLMOD system.
#include <Eigen/Cholesky>
#include <Eigen/CholmodSupport>
#include <Eigen/SparseCore>
#include <memory>
#include <utility>
#include <vector>

#include "affix/solvers/linear/block_hessian.hpp"
#include "affix/solvers/linear/block_partition.hpp"

namespace affix {

class SparseCholesky {
 public:
  SparseCholesky();
  ~SparseCholesky();

  /// Factorises H part by part (header). Returns false if a part is not numerically positive definite.
  bool factorize(const BlockHessian& H);
  /// Factorises a symmetric sparse matrix given whole (the reduced joint-space system); the symbolic
  /// analysis is kept while its pattern is unchanged.
  bool factorize(const Eigen::SparseMatrix<double>& A);
  /// Solves H x = b with the last factorisation (a system of size 0 gives the empty vector).
  VecX solve(const VecX& b);
  /// CHOLMOD symbolic analyses so far (of the general matrix and of every part).
  int symbolic_analyses() const { return symbolic_analyses_; }
  /// Of the last block factorisation: parts factorised by CHOLMOD, and lone blocks factorised densely.
  int sparse_parts() const { return static_cast<int>(sparse_.size()); }
  int dense_parts() const { return static_cast<int>(dense_.size()); }

 private:
  using Llt = Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>, Eigen::Lower>;
  using Pattern = std::vector<std::pair<int, int>>;
  /// One independent part of a BlockHessian, kept under its first block between factorisations.
  struct Part {
    std::vector<int> blocks;  // ascending
    Pattern pattern;          // the couplings' keys the structure was built for
    std::vector<int> first;   // its couplings of local column J: couplings[first[J] .. first[J + 1])
    Eigen::SparseMatrix<double> lower;  // lower triangle, column-major
    std::unique_ptr<Llt> llt;
    VecX rhs;
  };
  bool factorize_part(const BlockHessian& H, int component);
  void build_structure(const BlockHessian& H, const std::vector<int>& couplings, Part& part);
  void fill_values(const BlockHessian& H, const std::vector<int>& couplings, Part& part);
  std::unique_ptr<Llt> new_llt() const;

  // The block entry point.
  BlockPartition partition_;
  std::vector<std::unique_ptr<Part>> parts_;  // by first block; created on first need
  std::vector<int> sparse_;                   // the parts of the last factorisation (first blocks)
  std::vector<int> dense_;                    // its lone blocks
  std::vector<Eigen::LLT<Mat12>> dense_llt_;  // by block
  bool block_system_ = true;                  // the last factorisation was of a BlockHessian
  // The general entry point.
  Eigen::SparseMatrix<double> lower_;
  std::vector<int> general_outer_, general_inner_;  // pattern of the last general matrix
  bool general_analysed_ = false;
  std::unique_ptr<Llt> llt_;
  int symbolic_analyses_ = 0;
  bool empty_ = false;  // the last system had no unknowns
};

}  // namespace affix
