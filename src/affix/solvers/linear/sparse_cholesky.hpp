#pragma once
// Sparse direct solve of a BlockHessian with CHOLMOD (supernodal LLᵀ, AMD/METIS ordering). The
// symbolic analysis is kept while the block pattern is unchanged, so a step whose contacts keep the
// same body pairs pays for numeric factorisations only.
#include <Eigen/CholmodSupport>
#include <Eigen/SparseCore>
#include <memory>
#include <utility>
#include <vector>

#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {

class SparseCholesky {
 public:
  SparseCholesky();
  ~SparseCholesky();

  /// Factorises H. Returns false if H is not numerically positive definite.
  bool factorize(const BlockHessian& H);
  /// Factorises a symmetric sparse matrix given whole (the reduced joint-space system); the symbolic
  /// analysis is kept while its pattern is unchanged.
  bool factorize(const Eigen::SparseMatrix<double>& A);
  /// Solves H x = b with the last factorisation (a system of size 0 gives the empty vector).
  VecX solve(const VecX& b);
  int symbolic_analyses() const { return symbolic_analyses_; }

 private:
  using Pattern = std::vector<std::pair<int, int>>;
  void build_structure(const BlockHessian& H);
  void fill_values(const BlockHessian& H);

  Eigen::SparseMatrix<double> lower_;  // lower triangle, column-major
  Pattern pattern_;                    // the couplings the structure was built for
  int block_count_ = -1;
  std::vector<int> general_outer_, general_inner_;  // pattern of the last general matrix
  std::unique_ptr<Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>, Eigen::Lower>> llt_;
  int symbolic_analyses_ = 0;
  bool empty_ = false;  // the last system had no unknowns
};

}  // namespace affix
