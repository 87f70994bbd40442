// Basis extension (Chen 2022 §4.1): V = [C̃; Ĩ] is upper triangular in the (pivots, free DOFs) order and
// inverted by to_full; the kept rows become exact Dirichlet values; dependent rows are found and
// dropped (checked against the rank of the dense C); a 100-body chain builds quickly and stays sparse.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <random>

#include "affix/joints/basis_extension.hpp"
#include "affix/math/types.hpp"

namespace affix {
namespace {

MatX dense(const std::vector<SparseRow>& rows, int n) {
  MatX C = MatX::Zero(static_cast<int>(rows.size()), n);
  for (int i = 0; i < static_cast<int>(rows.size()); ++i)
    for (const auto& [j, c] : rows[i].terms) C(i, j) += c;
  return C;
}

int rank(const MatX& C) { return static_cast<int>(Eigen::FullPivLU<MatX>(C).rank()); }

/// `count` rows over n DOFs, each with `per_row` distinct DOFs and coefficients in [−2, 2].
std::vector<SparseRow> random_rows(int count, int n, int per_row, std::mt19937& rng) {
  std::uniform_real_distribution<double> coefficient(-2.0, 2.0);
  std::vector<int> dofs(n);
  for (int j = 0; j < n; ++j) dofs[j] = j;
  std::vector<SparseRow> rows(count);
  for (auto& row : rows) {
    std::shuffle(dofs.begin(), dofs.end(), rng);
    for (int t = 0; t < per_row; ++t) row.terms.emplace_back(dofs[t], coefficient(rng));
  }
  return rows;
}

VecX random_vector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = value(rng);
  return v;
}

/// U = V⁻¹, column by column through to_full.
MatX inverse_by_back_substitution(const BasisExtension& basis) {
  const int n = basis.dof_count();
  MatX U(n, n);
  for (int k = 0; k < n; ++k) U.col(k) = basis.to_full(VecX::Unit(n, k));
  return U;
}

/// L, the row operations: column r is s̃ for s = e_r.
MatX combination(const BasisExtension& basis, int row_count) {
  MatX L(basis.constraint_count(), row_count);
  for (int r = 0; r < row_count; ++r) L.col(r) = basis.eliminated_rhs(VecX::Unit(row_count, r));
  return L;
}

// Affine bodies: body b owns DOFs 12b … 12b + 11, q = (p, rows of A), and its material point x̄ sits
// at p + A x̄, so coordinate a has coefficient 1 at p_a and x̄_c at A(a, c).
void add_point(SparseRow& row, int body, const Vec3& xbar, int a, double sign) {
  row.terms.emplace_back(12 * body + a, sign);
  for (int c = 0; c < 3; ++c) row.terms.emplace_back(12 * body + 3 + 3 * a + c, sign * xbar[c]);
}

/// Bodies i and j glued at the world point w of the rest configuration (body b at origin[b], A = I):
/// three rows p_i + A_i x̄_i − p_j − A_j x̄_j = 0.
void connect(std::vector<SparseRow>& rows, const std::vector<Vec3>& origin, int i, int j, const Vec3& w) {
  for (int a = 0; a < 3; ++a) {
    SparseRow row;
    add_point(row, i, w - origin[i], a, 1.0);
    add_point(row, j, w - origin[j], a, -1.0);
    rows.push_back(row);
  }
}

/// The rest configuration: q_b = (origin[b], I).
VecX rest_state(const std::vector<Vec3>& origin) {
  VecX q = VecX::Zero(12 * static_cast<int>(origin.size()));
  for (int b = 0; b < static_cast<int>(origin.size()); ++b) {
    q.segment<3>(12 * b) = origin[b];
    for (int a = 0; a < 3; ++a) q[12 * b + 3 + 4 * a] = 1.0;
  }
  return q;
}

/// A chain of `links` bodies along x, body 0 pinned to the world by a ball joint (the first three rows,
/// right-hand side `s`), consecutive bodies joined by ball joints at a point off the axis (s = 0).
std::vector<SparseRow> chain_rows(int links, std::vector<Vec3>& origin, VecX& s) {
  origin.clear();
  for (int b = 0; b < links; ++b) origin.emplace_back(2.0 * b, 0.1 * b, 0.0);
  const Vec3 pin = origin[0] + Vec3(-1.0, 0.3, 0.7);
  std::vector<SparseRow> rows(3);
  for (int a = 0; a < 3; ++a) add_point(rows[a], 0, pin - origin[0], a, 1.0);
  for (int b = 0; b + 1 < links; ++b) connect(rows, origin, b, b + 1, origin[b] + Vec3(1.0, 0.3, -0.7));
  s = VecX::Zero(static_cast<int>(rows.size()));
  s.head<3>() = pin;
  return rows;
}

void expect_near(const MatX& actual, const MatX& expected, double tolerance) {
  ASSERT_EQ(actual.rows(), expected.rows());
  ASSERT_EQ(actual.cols(), expected.cols());
  EXPECT_LE((actual - expected).cwiseAbs().maxCoeff(), tolerance);
}

/// The checks every basis must pass, on the dense C of the rows it was built from.
void expect_valid_basis(const BasisExtension& basis, const MatX& C) {
  const int n = basis.dof_count(), m = basis.constraint_count();
  EXPECT_EQ(m, rank(C));
  EXPECT_EQ(static_cast<int>(basis.dropped_rows().size()), C.rows() - m);

  // Pivots and free DOFs partition the DOFs; the free ones are ascending.
  std::vector<int> order = basis.pivot_dofs();
  order.insert(order.end(), basis.free_dofs().begin(), basis.free_dofs().end());
  EXPECT_TRUE(std::is_sorted(basis.free_dofs().begin(), basis.free_dofs().end()));
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (int j = 0; j < n; ++j) ASSERT_EQ(sorted[j], j);

  // V in the (pivots, free DOFs) column order is upper triangular with a non-zero diagonal, and each
  // pivot is its row's entry of largest magnitude.
  const MatX V = MatX(basis.matrix());
  MatX permuted(n, n);
  for (int c = 0; c < n; ++c) permuted.col(c) = V.col(order[c]);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < r; ++c) EXPECT_EQ(permuted(r, c), 0.0) << "row " << r << ", column " << c;
    EXPECT_NE(permuted(r, r), 0.0);
  }
  for (int k = 0; k < m; ++k) EXPECT_EQ(std::abs(permuted(k, k)), V.row(k).cwiseAbs().maxCoeff());

  // U = V⁻¹, and to_reduced / to_full are inverse to each other.
  const MatX U = inverse_by_back_substitution(basis);
  expect_near(V * U, MatX::Identity(n, n), 1e-10);
  expect_near(U * V, MatX::Identity(n, n), 1e-10);
  std::mt19937 rng(5);
  const VecX x = random_vector(n, rng), z = random_vector(n, rng);
  EXPECT_LE((basis.to_full(basis.to_reduced(x)) - x).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LE((basis.to_reduced(basis.to_full(z)) - z).cwiseAbs().maxCoeff(), 1e-10);

  // C̃ = L C, and s̃ = L s is what to_reduced gives for x with C x = s.
  const MatX L = combination(basis, static_cast<int>(C.rows()));
  expect_near(L * C, V.topRows(m), 1e-12 * std::max(1.0, C.cwiseAbs().maxCoeff()));
  const VecX s = C * x;
  EXPECT_LE((basis.to_reduced(x).head(m) - basis.eliminated_rhs(s)).cwiseAbs().maxCoeff(), 1e-10);

  // N is the free columns of U, and C N = 0.
  const MatX N = MatX(basis.free_basis());
  expect_near(N, U.rightCols(n - m), 1e-12);
  if (n > m) {
    EXPECT_LE((C * N).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(BasisExtension, NoConstraintsIsTheIdentity) {
  const BasisExtension basis(5);
  EXPECT_EQ(basis.constraint_count(), 0);
  EXPECT_EQ(basis.free_dofs(), std::vector<int>({0, 1, 2, 3, 4}));
  expect_near(MatX(basis.matrix()), MatX::Identity(5, 5), 0.0);
  expect_near(MatX(basis.free_basis()), MatX::Identity(5, 5), 0.0);
  const VecX x = VecX::LinSpaced(5, -1.0, 1.0);
  EXPECT_EQ(basis.to_full(x), x);
  EXPECT_EQ(basis.to_reduced(x), x);
  EXPECT_EQ(BasisExtension().dof_count(), 0);
}

TEST(BasisExtension, RandomIndependentRows) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    const auto rows = random_rows(7, 20, 4, rng);
    const MatX C = dense(rows, 20);
    ASSERT_EQ(rank(C), 7);
    const BasisExtension basis(20, rows);
    EXPECT_EQ(basis.constraint_count(), 7);
    EXPECT_TRUE(basis.dropped_rows().empty());
    expect_valid_basis(basis, C);
  }
}

TEST(BasisExtension, RestorationMakesTheRowsExact) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE(trial);
    const auto rows = random_rows(7, 20, 5, rng);
    const MatX C = dense(rows, 20);
    const BasisExtension basis(20, rows);
    const VecX s = random_vector(7, rng), x = random_vector(20, rng), y = random_vector(13, rng);
    const VecX delta = basis.restoration(x, basis.eliminated_rhs(s));
    for (int f : basis.free_dofs()) EXPECT_EQ(delta[f], 0.0);
    const VecX restored = x + delta;
    EXPECT_LE((C * restored - s).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((C * (restored + basis.free_basis() * y) - s).cwiseAbs().maxCoeff(), 1e-12);
    // Already exact: nothing to restore.
    EXPECT_LE(basis.restoration(restored, basis.eliminated_rhs(s)).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST(BasisExtension, DropsDuplicatesAndCombinations) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    SCOPED_TRACE(trial);
    auto rows = random_rows(6, 20, 4, rng);
    SparseRow combined;  // 0.7 r0 − 1.3 r2, with the DOFs they share summed
    for (const auto& [j, c] : rows[0].terms) combined.terms.emplace_back(j, 0.7 * c);
    for (const auto& [j, c] : rows[2].terms) {
      auto shared = std::find_if(combined.terms.begin(), combined.terms.end(),
                                 [j = j](const auto& t) { return t.first == j; });
      if (shared != combined.terms.end())
        shared->second -= 1.3 * c;
      else
        combined.terms.emplace_back(j, -1.3 * c);
    }
    rows.insert(rows.begin() + 3, rows[1]);   // an exact duplicate, row 3
    rows.insert(rows.begin() + 6, combined);  // row 6
    const MatX C = dense(rows, 20);
    const BasisExtension basis(20, rows);
    EXPECT_EQ(basis.dropped_rows(), std::vector<int>({3, 6}));
    EXPECT_EQ(basis.constraint_count(), 6);
    expect_valid_basis(basis, C);

    // With a consistent right-hand side the dropped rows hold as well.
    const VecX s = C * random_vector(20, rng), x = random_vector(20, rng);
    const VecX restored = x + basis.restoration(x, basis.eliminated_rhs(s));
    EXPECT_LE((C * restored - s).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST(BasisExtension, DropsAPointConnectionWrittenTwice) {
  // The same ball joint again, as (x + y, −2 y, 0.5 z) rows: all three depend on the first three.
  const std::vector<Vec3> origin = {Vec3(0.0, 0.0, 0.0), Vec3(1.5, 0.2, -0.3)};
  std::vector<SparseRow> rows, again;
  const Vec3 w(0.8, 0.4, 0.1);
  connect(rows, origin, 0, 1, w);
  connect(again, origin, 0, 1, w);
  SparseRow sum = again[0];
  sum.terms.insert(sum.terms.end(), again[1].terms.begin(), again[1].terms.end());  // disjoint DOFs
  for (auto& [j, c] : again[1].terms) c *= -2.0;
  for (auto& [j, c] : again[2].terms) c *= 0.5;
  rows.push_back(sum);
  rows.push_back(again[1]);
  rows.push_back(again[2]);
  const BasisExtension basis(24, rows);
  EXPECT_EQ(basis.dropped_rows(), std::vector<int>({3, 4, 5}));
  expect_valid_basis(basis, dense(rows, 24));
}

// A planar four-bar: bodies 0 … 3 in a loop, each hinge two point connections on an axis along z. On
// affine bodies a weighted sum of hinge rows vanishes when, per coordinate, it is Σ (A_i − A_j) e_z
// around the loop, which telescopes: 3 dependent rows, the last three (24 rows, rank 21). Fixing body
// 0 to the world first (12 rows) leaves the same 3.
std::vector<SparseRow> four_bar_rows(const Vec3& tilt, std::vector<Vec3>& origin) {
  origin = {Vec3(0.0, 0.0, 0.0), Vec3(2.0, 0.0, 0.0), Vec3(2.2, 1.5, 0.0), Vec3(-0.1, 1.4, 0.0)};
  const std::vector<Vec3> hinge = {Vec3(1.0, -0.1, 0.0), Vec3(2.1, 0.8, 0.0), Vec3(1.0, 1.5, 0.0),
                                   Vec3(-0.05, 0.7, 0.0)};
  std::vector<SparseRow> rows;
  for (int e = 0; e < 4; ++e) {
    const Vec3 axis = Vec3::UnitZ() + e * tilt;
    connect(rows, origin, e, (e + 1) % 4, hinge[e]);
    connect(rows, origin, e, (e + 1) % 4, hinge[e] + axis);
  }
  return rows;
}

TEST(BasisExtension, PlanarFourBarHasThreeRedundantRows) {
  std::vector<Vec3> origin;
  const auto rows = four_bar_rows(Vec3::Zero(), origin);
  const MatX C = dense(rows, 48);
  ASSERT_EQ(rank(C), 21);
  const BasisExtension basis(48, rows);
  EXPECT_EQ(basis.constraint_count(), 21);
  EXPECT_EQ(basis.dropped_rows(), std::vector<int>({21, 22, 23}));
  expect_valid_basis(basis, C);
  // The rest configuration satisfies every row, the dropped ones included, and moves along N keep it so.
  const VecX q = rest_state(origin);
  EXPECT_LE((C * q).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE(basis.restoration(q, basis.eliminated_rhs(VecX::Zero(24))).cwiseAbs().maxCoeff(), 1e-12);
  std::mt19937 rng(4);
  EXPECT_LE((C * (q + basis.free_basis() * random_vector(48 - 21, rng))).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(BasisExtension, FourBarFixedToTheWorld) {
  std::vector<Vec3> origin;
  const auto hinges = four_bar_rows(Vec3::Zero(), origin);
  std::vector<SparseRow> rows;
  for (int j = 0; j < 12; ++j) rows.push_back({{{j, 1.0}}});  // q_0 = rest
  rows.insert(rows.end(), hinges.begin(), hinges.end());
  const MatX C = dense(rows, 48);
  ASSERT_EQ(rank(C), 33);
  const BasisExtension basis(48, rows);
  EXPECT_EQ(basis.dropped_rows(), std::vector<int>({33, 34, 35}));
  expect_valid_basis(basis, C);
  // Body 0 is pinned: N moves none of its DOFs.
  const MatX N = MatX(basis.free_basis());
  EXPECT_EQ(N.topRows(12).cwiseAbs().maxCoeff(), 0.0);
}

TEST(BasisExtension, SkewFourBarHasNoRedundantRows) {
  // Hinge axes no longer parallel: the telescoping sum is gone and all 24 rows are independent.
  std::vector<Vec3> origin;
  const auto rows = four_bar_rows(Vec3(0.3, -0.2, 0.1), origin);
  const MatX C = dense(rows, 48);
  ASSERT_EQ(rank(C), 24);
  const BasisExtension basis(48, rows);
  EXPECT_TRUE(basis.dropped_rows().empty());
  expect_valid_basis(basis, C);
}

TEST(BasisExtension, ShortChainHasAFullRankFreeBasis) {
  std::vector<Vec3> origin;
  VecX s;
  const auto rows = chain_rows(5, origin, s);
  const MatX C = dense(rows, 60);
  const BasisExtension basis(60, rows);
  EXPECT_EQ(basis.constraint_count(), 15);
  expect_valid_basis(basis, C);
  EXPECT_EQ(rank(MatX(basis.free_basis())), 60 - 15);
  EXPECT_LE((C * rest_state(origin) - s).cwiseAbs().maxCoeff(), 1e-12);
}

// Speed is the benchmarks' business (DESIGN §6): no wall-clock bound here, only the structure that
// makes the build fast — sparse rows, no fill beyond the joints.
TEST(BasisExtension, HundredLinkChainStaysSparse) {
  std::vector<Vec3> origin;
  VecX s;
  const auto rows = chain_rows(100, origin, s);  // n = 1200
  const int n = 12 * 100;
  ASSERT_EQ(rows.size(), 300u);
  const BasisExtension basis(n, rows);
  EXPECT_EQ(basis.constraint_count(), 300);
  EXPECT_TRUE(basis.dropped_rows().empty());

  // Fill stays along the joints: no eliminated row is much longer than an original one (8 terms).
  const Eigen::SparseMatrix<double> V = basis.matrix();
  RecordProperty("V_nonzeros", static_cast<int>(V.nonZeros()));
  RecordProperty("N_nonzeros", static_cast<int>(basis.free_basis().nonZeros()));
  EXPECT_LE(V.nonZeros(), 300 * 16 + (n - 300));

  // C N = 0, moves along N keep the rest configuration exact, and restoration makes any x exact.
  Eigen::SparseMatrix<double> C(300, n);
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < 300; ++i)
    for (const auto& [j, c] : rows[i].terms) entries.emplace_back(i, j, c);
  C.setFromTriplets(entries.begin(), entries.end());
  const Eigen::SparseMatrix<double> CN = C * basis.free_basis();
  EXPECT_LE(MatX(CN).cwiseAbs().maxCoeff(), 1e-10);
  std::mt19937 rng(6);
  const VecX moved = rest_state(origin) + basis.free_basis() * random_vector(n - 300, rng);
  EXPECT_LE((C * moved - s).cwiseAbs().maxCoeff(), 1e-10);
  const VecX x = random_vector(n, rng);
  EXPECT_LE((C * (x + basis.restoration(x, basis.eliminated_rhs(s))) - s).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LE((basis.to_full(basis.to_reduced(x)) - x).cwiseAbs().maxCoeff(), 1e-10);
}

}  // namespace
}  // namespace affix
