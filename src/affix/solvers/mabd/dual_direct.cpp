#include "affix/solvers/mabd/dual_direct.hpp"

#include <Eigen/SparseCore>
#include <algorithm>

#include "affix/error.hpp"

namespace affix {
namespace {

constexpr double kRegularisation = 1e-10;  // δ relative to D's largest diagonal entry (header)

Eigen::SparseMatrix<double> assemble(const DualMatrix& dual, const std::vector<int>& offsets, double shift) {
  const KktSystem& system = dual.system();
  std::vector<Eigen::Triplet<double>> entries;
  const auto add = [&](int j, int k) {
    const DualBlock D = dual.block(j, k);
    for (int c = 0; c < D.cols(); ++c)
      for (int r = 0; r < D.rows(); ++r) entries.emplace_back(offsets[j] + r, offsets[k] + c, D(r, c));
  };
  for (int j = 0; j < static_cast<int>(system.joints.size()); ++j) add(j, j);
  // Each pair of joints that share a body, once, in both triangles (block() sums over shared bodies).
  std::vector<std::pair<int, int>> pairs;
  for (int b = 0; b < static_cast<int>(system.bodies.size()); ++b) {
    const std::span<const int> joints = dual.joints_of(b);  // ascending
    for (std::size_t x = 0; x < joints.size(); ++x)
      for (std::size_t y = x + 1; y < joints.size(); ++y) pairs.emplace_back(joints[x], joints[y]);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const auto& [j, k] : pairs) add(j, k), add(k, j);
  const int n = offsets.back();
  for (int i = 0; i < n && shift > 0.0; ++i) entries.emplace_back(i, i, shift);
  Eigen::SparseMatrix<double> D(n, n);
  D.setFromTriplets(entries.begin(), entries.end());
  return D;
}

}  // namespace

KktSolution DualDirectSolver::solve(const KktSystem& system) {
  const DualMatrix dual(system);
  const std::vector<int> offsets = system.dual_offsets();
  KktSolution solution;
  const std::vector<Vec12> free = system.free_steps();
  VecX r(offsets.back());
  for (int j = 0; j < static_cast<int>(system.joints.size()); ++j)
    r.segment(offsets[j], system.joints[j].rows()) = dual.rhs(j, free);

  // A loop's redundant rows stay redundant while its rows do: once D needed the shift, the next solves
  // of the same size start with it rather than fail a factorisation first (header).
  const int size = offsets.back();
  const bool shift_first = regularised_ && size == regularised_size_;
  Eigen::SparseMatrix<double> D = assemble(dual, offsets, 0.0);
  const double largest = D.rows() > 0 ? D.diagonal().maxCoeff() : 0.0;
  if (shift_first && largest > 0.0) D = assemble(dual, offsets, kRegularisation * largest);
  regularised_ = shift_first && largest > 0.0;
  if (!cholesky_.factorize(D)) {
    if (regularised_ || !(largest > 0.0))
      throw SimulationError("the joints' dual matrix G H⁻¹ Gᵀ is not positive semi-definite");
    D = assemble(dual, offsets, kRegularisation * largest);
    regularised_ = true;
    if (!cholesky_.factorize(D))
      throw SimulationError("the joints' dual matrix G H⁻¹ Gᵀ is not positive semi-definite");
  }
  regularised_size_ = size;
  solution.lambda = cholesky_.solve(r);
  solution.dq = primal_steps(system, free, solution.lambda);
  return solution;
}

}  // namespace affix
