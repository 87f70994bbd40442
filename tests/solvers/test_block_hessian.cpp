// BlockHessian's declared coupling pattern (Lan 2022 §4.3) and its one-pass Dirichlet rows, against
// a dense matrix assembled directly.
#include <gtest/gtest.h>

#include "affix/solvers/linear/block_hessian.hpp"

namespace affix {
namespace {

MatX dense(const BlockHessian& H) {
  constexpr int m = BlockHessian::kBlockSize;
  const int n = H.block_count();
  MatX D = MatX::Zero(m * n, m * n);
  for (int i = 0; i < n; ++i) D.block<m, m>(m * i, m * i) = H.diagonal(i);
  for (const auto& [key, block] : H.couplings()) {  // block (row, column) = (key.second, key.first)
    D.block<m, m>(m * key.second, m * key.first) += block;
    D.block<m, m>(m * key.first, m * key.second) += block.transpose();
  }
  return D;
}

TEST(BlockHessian, DeclaredPatternHoldsTheSameSumsAsInsertedBlocks) {
  std::srand(3);
  const std::vector<std::array<int, 2>> adds{{0, 3}, {3, 0}, {2, 1}, {4, 2}, {1, 2}, {0, 3}, {3, 4}};
  std::vector<Mat12> blocks;
  for (std::size_t k = 0; k < adds.size(); ++k) blocks.push_back(Mat12::Random());
  BlockHessian inserted, declared;
  inserted.reset(5);
  declared.reset(5, {{3, 0}, {1, 2}, {2, 4}, {4, 3}, {0, 1}, {1, 0}});  // {0, 1}: declared, never added
  for (std::size_t k = 0; k < adds.size(); ++k) {
    inserted.add_coupling(adds[k][0], adds[k][1], blocks[k]);
    declared.add_coupling(adds[k][0], adds[k][1], blocks[k]);
  }
  EXPECT_EQ(dense(declared), dense(inserted));
  ASSERT_EQ(declared.couplings().size(), 5u);
  for (std::size_t k = 1; k < declared.couplings().size(); ++k)
    EXPECT_LT(declared.couplings()[k - 1].first, declared.couplings()[k].first) << "column-major order";
  // The same pattern again: zero blocks, same layout.
  declared.reset(5, {{0, 1}, {0, 3}, {1, 2}, {2, 4}, {3, 4}});
  EXPECT_EQ(declared.couplings().size(), 5u);
  EXPECT_TRUE(dense(declared).isZero(0.0));
}

TEST(BlockHessian, DirichletMaskEqualsOneBodyAtATime) {
  std::srand(4);
  BlockHessian one, mask;
  for (BlockHessian* H : {&one, &mask}) H->reset(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
  std::srand(4);
  for (BlockHessian* H : {&one, &mask}) {
    std::srand(4);
    for (int i = 0; i < 4; ++i) H->diagonal(i) = Mat12::Random();
    for (const auto& [a, b] : std::vector<std::array<int, 2>>{{1, 0}, {2, 1}, {3, 2}, {3, 0}})
      H->add_coupling(a, b, Mat12::Random());
  }
  one.make_dirichlet(1);
  one.make_dirichlet(3);
  mask.make_dirichlet(std::vector<char>{1, 0, 1, 0});
  EXPECT_EQ(dense(mask), dense(one));
  EXPECT_EQ(mask.diagonal(1), Mat12::Identity());
  EXPECT_FALSE(mask.diagonal(0).isIdentity(0.0));
}

}  // namespace
}  // namespace affix
