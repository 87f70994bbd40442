// The block Hessian (block_hessian.hpp, Lan 2022 §4.3) and its sparse Cholesky solve
// (sparse_cholesky.hpp) against dense Eigen factorisations of the same matrix assembled here block by
// block: random symmetric positive definite block systems with random coupling patterns, new values on
// an unchanged pattern (the symbolic analysis is kept: symbolic_analyses() does not grow), changed
// patterns (it is redone), independent islands factorised apart (block_partition.hpp), the general
// sparse-matrix entry point, and an indefinite matrix.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <set>

#include "affix/solvers/linear/block_hessian.hpp"
#include "affix/solvers/linear/sparse_cholesky.hpp"

namespace affix {
namespace {

using Pair = std::pair<int, int>;  // (i, j), i ≠ j, as passed to add_coupling

/// A random SPD block system: the BlockHessian and its dense twin, assembled independently (block
/// (i, j) = B and (j, i) = Bᵀ for add_coupling(i, j, B), whichever of i, j is larger).
struct BlockSystem {
  BlockHessian H;
  MatX dense;
};

/// Couplings of a random pattern on `blocks` blocks: each pair present with probability `density`,
/// given in a random orientation.
std::vector<Pair> random_pattern(std::mt19937& rng, int blocks, double density) {
  std::bernoulli_distribution present(density), flip(0.5);
  std::vector<Pair> pattern;
  for (int i = 0; i < blocks; ++i)
    for (int j = i + 1; j < blocks; ++j)
      if (present(rng)) pattern.push_back(flip(rng) ? Pair{i, j} : Pair{j, i});
  return pattern;
}

/// Values on a pattern. Off-diagonal entries in [−1, 1]; each diagonal block a random symmetric matrix
/// with entries in [−1, 1] plus (12·(1 + couplings of the block row)) I, so every scalar row is strictly
/// diagonally dominant with a positive diagonal: SPD.
BlockSystem random_system(std::mt19937& rng, int blocks, const std::vector<Pair>& pattern) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto random_block = [&] {
    Mat12 B;
    for (int r = 0; r < 12; ++r)
      for (int c = 0; c < 12; ++c) B(r, c) = u(rng);
    return B;
  };
  BlockSystem s;
  s.H.reset(blocks);
  s.dense = MatX::Zero(12 * blocks, 12 * blocks);
  std::vector<int> degree(blocks, 0);
  for (const auto& [i, j] : pattern) {
    // Split one block into two additions, to check that couplings accumulate.
    const Mat12 B = random_block(), part = random_block();
    s.H.add_coupling(i, j, part);
    s.H.add_coupling(j, i, (B - part).transpose());  // the same block seen from (j, i)
    s.dense.block<12, 12>(12 * i, 12 * j) += B;
    s.dense.block<12, 12>(12 * j, 12 * i) += B.transpose();
    ++degree[i], ++degree[j];
  }
  for (int i = 0; i < blocks; ++i) {
    const Mat12 S = random_block();
    const Mat12 D = 0.5 * (S + S.transpose()) + 12.0 * (1 + degree[i]) * Mat12::Identity();
    s.H.diagonal(i) = D;
    s.dense.block<12, 12>(12 * i, 12 * i) = D;
  }
  return s;
}

VecX random_vector(std::mt19937& rng, int size) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX v(size);
  for (int k = 0; k < size; ++k) v[k] = u(rng);
  return v;
}

/// ‖x − x_ref‖∞ / ‖x_ref‖∞: the relative error of a solve against the dense LLᵀ.
double relative_error(const VecX& x, const VecX& reference) {
  return (x - reference).lpNorm<Eigen::Infinity>() / reference.lpNorm<Eigen::Infinity>();
}

/// Factorises s.H and checks a solve of a random right-hand side against a dense LLᵀ and LDLᵀ.
void expect_solves_like_dense(SparseCholesky& solver, const BlockSystem& s, std::mt19937& rng) {
  ASSERT_TRUE(solver.factorize(s.H));
  const VecX b = random_vector(rng, static_cast<int>(s.dense.rows()));
  const Eigen::LLT<MatX> llt(s.dense);
  ASSERT_EQ(llt.info(), Eigen::Success) << "the reference must be SPD";
  const VecX x = solver.solve(b);
  EXPECT_LT(relative_error(x, llt.solve(b)), 1e-12);
  EXPECT_LT(relative_error(x, s.dense.ldlt().solve(b)), 1e-12);
  EXPECT_LT((s.dense * x - b).lpNorm<Eigen::Infinity>(), 1e-12 * b.lpNorm<Eigen::Infinity>() * s.dense.norm());
}

TEST(BlockHessian, CouplingsAccumulateAndAreStoredAsLowerBlocks) {
  BlockHessian H;
  H.reset(3);
  EXPECT_EQ(H.block_count(), 3);
  const Mat12 B = Mat12::Random(), C = Mat12::Random();
  H.add_coupling(0, 2, B);  // block (0, 2) = B: stored as its lower transpose (2, 0) = Bᵀ
  H.add_coupling(2, 0, C);  // block (2, 0) += C
  ASSERT_EQ(H.couplings().size(), 1u);
  const auto& [key, block] = *H.couplings().begin();
  EXPECT_EQ(key, Pair(0, 2)) << "key (column, row) of the lower block (row 2, column 0)";
  EXPECT_TRUE(block.isApprox(B.transpose() + C));
  EXPECT_TRUE(H.diagonal(1).isZero(0.0));
  H.reset(2);
  EXPECT_TRUE(H.couplings().empty());
}

TEST(BlockHessian, MakeDirichletReplacesTheBodysRowAndColumnByTheIdentity) {
  std::mt19937 rng(3);
  BlockSystem s = random_system(rng, 4, {{0, 1}, {2, 1}, {3, 2}, {0, 3}});
  s.H.make_dirichlet(1);
  MatX expected = s.dense;
  expected.middleRows(12, 12).setZero();
  expected.middleCols(12, 12).setZero();
  expected.block<12, 12>(12, 12).setIdentity();
  SparseCholesky solver;
  ASSERT_TRUE(solver.factorize(s.H));
  const VecX b = random_vector(rng, 48);
  const VecX x = solver.solve(b);
  EXPECT_LT(relative_error(x, expected.llt().solve(b)), 1e-12);
  EXPECT_TRUE(x.segment<12>(12).isApprox(b.segment<12>(12), 1e-14)) << "identity rows: x = b";
}

TEST(SparseCholesky, SolvesMatchDenseFactorisationsOnRandomBlockSystems) {
  std::mt19937 rng(1);
  for (const int blocks : {1, 2, 5, 12}) {
    for (const double density : {0.0, 0.3, 1.0}) {
      SCOPED_TRACE(std::to_string(blocks) + " blocks, density " + std::to_string(density));
      SparseCholesky solver;
      expect_solves_like_dense(solver, random_system(rng, blocks, random_pattern(rng, blocks, density)), rng);
    }
  }
}

TEST(SparseCholesky, NewValuesOnTheSamePatternKeepTheSymbolicAnalysis) {
  std::mt19937 rng(2);
  const int blocks = 8;
  const std::vector<Pair> pattern = random_pattern(rng, blocks, 0.4);
  SparseCholesky solver;
  EXPECT_EQ(solver.symbolic_analyses(), 0);
  for (int k = 0; k < 5; ++k) {
    SCOPED_TRACE("factorisation " + std::to_string(k));
    expect_solves_like_dense(solver, random_system(rng, blocks, pattern), rng);
    EXPECT_EQ(solver.symbolic_analyses(), 1);
  }
  // The same pattern given with the couplings in the other orientation is the same pattern.
  std::vector<Pair> flipped;
  for (const auto& [i, j] : pattern) flipped.push_back({j, i});
  expect_solves_like_dense(solver, random_system(rng, blocks, flipped), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 1);
}

TEST(SparseCholesky, AChangedPatternIsAnalysedAgainAndSolvedCorrectly) {
  std::mt19937 rng(4);
  SparseCholesky solver;
  const std::vector<Pair> first{{0, 1}, {1, 2}, {2, 3}}, second{{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  expect_solves_like_dense(solver, random_system(rng, 4, first), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 1);
  expect_solves_like_dense(solver, random_system(rng, 4, second), rng);  // a coupling more
  EXPECT_EQ(solver.symbolic_analyses(), 2);
  expect_solves_like_dense(solver, random_system(rng, 4, first), rng);  // and back
  EXPECT_EQ(solver.symbolic_analyses(), 3);
  // A body more, uncoupled: a part of its own, factorised densely; the coupled part keeps its analysis.
  expect_solves_like_dense(solver, random_system(rng, 5, first), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 4) << "a new block count starts afresh";
  expect_solves_like_dense(solver, random_system(rng, 5, first), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 4);
  EXPECT_EQ(solver.sparse_parts(), 1);
  EXPECT_EQ(solver.dense_parts(), 1);
  expect_solves_like_dense(solver, random_system(rng, 5, {}), rng);  // no couplings at all: all dense
  EXPECT_EQ(solver.symbolic_analyses(), 4);
  EXPECT_EQ(solver.sparse_parts(), 0);
  // Random patterns in turn, each solved right.
  for (int k = 0; k < 6; ++k) expect_solves_like_dense(solver, random_system(rng, 6, random_pattern(rng, 6, 0.5)), rng);
}

// Independent parts (block_partition.hpp): three islands, two bodies held (make_dirichlet) and one
// lone block. Each island is solved as the whole system is (dense reference); a pattern change in one
// island analyses that island alone; the solution with kept analyses is the one a fresh solver finds.
TEST(SparseCholesky, IndependentIslandsAreFactorisedApartAndHeldBlocksAreNotFactorised) {
  std::mt19937 rng(7);
  // Islands {0, 3, 5}, {1, 4}, {2, 7, 8}, the lone block 6, and 9, 10 coupled to 8 and 2 but held.
  const std::vector<Pair> pattern{{0, 3}, {5, 3}, {4, 1}, {2, 7}, {8, 7}, {9, 8}, {2, 10}};
  const auto with_held = [&](std::vector<Pair> p) {
    BlockSystem t = random_system(rng, 11, p);
    for (int held : {9, 10}) {
      t.H.make_dirichlet(held);
      t.dense.middleRows(12 * held, 12).setZero();
      t.dense.middleCols(12 * held, 12).setZero();
      t.dense.block<12, 12>(12 * held, 12 * held).setIdentity();
    }
    return t;
  };
  SparseCholesky solver;
  expect_solves_like_dense(solver, with_held(pattern), rng);
  EXPECT_EQ(solver.sparse_parts(), 3);
  EXPECT_EQ(solver.dense_parts(), 1) << "block 6 alone";
  EXPECT_EQ(solver.symbolic_analyses(), 3);

  // New values on the same pattern keep every analysis; a new coupling in one island (5–0) re-analyses
  // that island only; a coupling joining two islands (4–5) makes one part of them.
  expect_solves_like_dense(solver, with_held(pattern), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 3);
  std::vector<Pair> more = pattern;
  more.push_back({5, 0});
  const BlockSystem t = with_held(more);
  expect_solves_like_dense(solver, t, rng);
  EXPECT_EQ(solver.symbolic_analyses(), 4);
  more.push_back({4, 5});
  expect_solves_like_dense(solver, with_held(more), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 5);
  EXPECT_EQ(solver.sparse_parts(), 2);

  // Kept analyses against a fresh solver on the same matrix: the same factorisation, so the same x.
  expect_solves_like_dense(solver, t, rng);
  EXPECT_EQ(solver.symbolic_analyses(), 6) << "back to the pattern before the join";
  expect_solves_like_dense(solver, t, rng);
  EXPECT_EQ(solver.symbolic_analyses(), 6);
  SparseCholesky fresh;
  ASSERT_TRUE(fresh.factorize(t.H));
  const VecX b = random_vector(rng, 12 * 11);
  const VecX kept = solver.solve(b), anew = fresh.solve(b);
  EXPECT_LT(relative_error(kept, anew), 1e-14);
  EXPECT_TRUE(kept.segment<12>(12 * 9) == b.segment<12>(12 * 9)) << "held rows: x = b exactly";
}

/// A random sparse SPD matrix (not block structured): a random symmetric sparse part plus a dominant
/// diagonal.
Eigen::SparseMatrix<double> random_sparse_spd(std::mt19937& rng, int n, const std::set<Pair>& pattern) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Eigen::Triplet<double>> entries;
  VecX row_sum = VecX::Zero(n);
  for (const auto& [i, j] : pattern) {
    const double v = u(rng);
    entries.emplace_back(i, j, v);
    entries.emplace_back(j, i, v);
    row_sum[i] += std::abs(v), row_sum[j] += std::abs(v);
  }
  for (int i = 0; i < n; ++i) entries.emplace_back(i, i, 1.0 + row_sum[i] + std::abs(u(rng)));
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

std::set<Pair> random_scalar_pattern(std::mt19937& rng, int n, int count) {
  std::uniform_int_distribution<int> index(0, n - 1);
  std::set<Pair> pattern;
  while (static_cast<int>(pattern.size()) < count) {
    const int i = index(rng), j = index(rng);
    if (i != j) pattern.insert({std::max(i, j), std::min(i, j)});
  }
  return pattern;
}

TEST(SparseCholesky, GeneralSparseMatricesSolveLikeDenseAndKeepTheirAnalysisWhileThePatternHolds) {
  std::mt19937 rng(5);
  const int n = 40;
  SparseCholesky solver;
  const std::set<Pair> pattern = random_scalar_pattern(rng, n, 60);
  const auto check = [&](const Eigen::SparseMatrix<double>& A) {
    ASSERT_TRUE(solver.factorize(A));
    const VecX b = random_vector(rng, n);
    const MatX dense(A);
    EXPECT_LT(relative_error(solver.solve(b), dense.llt().solve(b)), 1e-12);
  };
  for (int k = 0; k < 3; ++k) check(random_sparse_spd(rng, n, pattern));
  EXPECT_EQ(solver.symbolic_analyses(), 1);
  check(random_sparse_spd(rng, n, random_scalar_pattern(rng, n, 80)));
  EXPECT_EQ(solver.symbolic_analyses(), 2);

  // The block and the general entry points keep separate analyses: switching between them analyses
  // neither again while its own pattern holds.
  const std::vector<Pair> blocks_pattern{{0, 1}, {2, 1}};
  expect_solves_like_dense(solver, random_system(rng, 3, blocks_pattern), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 3);
  const std::set<Pair> again = random_scalar_pattern(rng, n, 50);
  check(random_sparse_spd(rng, n, again));
  EXPECT_EQ(solver.symbolic_analyses(), 4);
  expect_solves_like_dense(solver, random_system(rng, 3, blocks_pattern), rng);
  EXPECT_EQ(solver.symbolic_analyses(), 4);
  check(random_sparse_spd(rng, n, again));
  EXPECT_EQ(solver.symbolic_analyses(), 4);
}

TEST(SparseCholesky, AnIndefiniteMatrixIsRefusedAndAnSpdOneAfterItStillSolves) {
  std::mt19937 rng(6);
  BlockSystem s = random_system(rng, 3, {{0, 1}, {1, 2}});
  BlockSystem bad = s;
  bad.H.diagonal(2)(5, 5) = -1e3;  // a negative pivot: not positive definite
  SparseCholesky solver;
  EXPECT_FALSE(solver.factorize(bad.H));
  expect_solves_like_dense(solver, s, rng);
  EXPECT_EQ(solver.symbolic_analyses(), 1) << "same pattern as the refused matrix";
}

TEST(SparseCholesky, ASystemWithNoUnknownsIsSolvedByTheEmptyVector) {
  // Every DOF held by joints to the world leaves the joint-space system 0×0; CHOLMOD cannot analyse it.
  SparseCholesky solver;
  EXPECT_TRUE(solver.factorize(Eigen::SparseMatrix<double>(0, 0)));
  EXPECT_EQ(solver.solve(VecX(0)).size(), 0);
  BlockHessian none;
  none.reset(0);
  EXPECT_TRUE(solver.factorize(none));
  EXPECT_EQ(solver.solve(VecX(0)).size(), 0);
}

}  // namespace
}  // namespace affix
