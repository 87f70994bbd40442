// The BLAS that CHOLMOD calls is the one the build chose (OpenBLAS, single-threaded), whatever the
// system's libblas.so.3 alternative points to, and a factorisation through it solves a system.
#include <gtest/gtest.h>

#include <cstdlib>

#include "affix/solvers/linear/blas_info.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"

namespace affix {
namespace {

TEST(BlasInfo, CholmodCallsSingleThreadedOpenBlas) {
  SparseCholesky solver;  // limits the BLAS threads
  const BlasInfo info = blas_info();
  EXPECT_NE(info.library.find("openblas"), std::string::npos) << "dgemm_ from " << info.library;
  EXPECT_EQ(info.config.rfind("OpenBLAS", 0), 0u) << info.config;
  if (!std::getenv("OPENBLAS_NUM_THREADS")) EXPECT_EQ(info.threads, 1);
  EXPECT_NE(blas_description().find("OpenBLAS"), std::string::npos) << blas_description();
}

// A block system large enough for CHOLMOD's supernodal path to call dgemm: 40 bodies in a chain of
// couplings, against a dense Cholesky of the same matrix.
TEST(BlasInfo, SupernodalFactorisationMatchesDenseReference) {
  constexpr int n = 40, m = BlockHessian::kBlockSize;
  BlockHessian H;
  H.reset(n);
  std::srand(7);
  for (int i = 0; i < n; ++i) H.diagonal(i) = 40.0 * Mat12::Identity();
  for (int i = 1; i < n; ++i) H.add_coupling(i, i - 1, Mat12::Random());
  VecX b = VecX::Random(n * m);
  SparseCholesky solver;
  ASSERT_TRUE(solver.factorize(H));
  const VecX x = solver.solve(b);
  MatX dense = MatX::Zero(n * m, n * m);
  for (int i = 0; i < n; ++i) dense.block<m, m>(m * i, m * i) = H.diagonal(i);
  for (const auto& [key, block] : H.couplings()) {  // block (row, column) = (key.second, key.first)
    dense.block<m, m>(m * key.second, m * key.first) = block;
    dense.block<m, m>(m * key.first, m * key.second) = block.transpose();
  }
  const VecX reference = dense.llt().solve(b);
  EXPECT_LT((x - reference).lpNorm<Eigen::Infinity>(), 1e-12 * reference.lpNorm<Eigen::Infinity>());
}

}  // namespace
}  // namespace affix
