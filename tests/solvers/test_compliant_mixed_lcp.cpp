// The compliant solver's mixed LCP (mixed_lcp.hpp) against direct references: with bilateral rows
// (random joint blocks on a chain of bodies, dense and CHOLMOD paths) and unilateral rows bounded below
// by 0, the solution equals the one found by enumerating every active set and solving the full
// [A B; Bᵀ D] system densely; with friction rows (bounds ±μλ_n) the solution meets every
// complementarity condition of the box-friction LCP, by pivoting and by PGS; a warm start from the
// solution takes PGS one sweep and pivoting one solve.
#include <gtest/gtest.h>

#include <random>

#include "affix/math/rotation.hpp"
#include "affix/solvers/compliant/mixed_lcp.hpp"
#include "support/random_rigid.hpp"

namespace affix {
namespace {

struct Problem {
  ConstraintJacobian J;
  std::vector<Mat6> W;
  VecX S, b, v_free;
  std::vector<UnilateralRow> rows;
};

Mat6 random_inverse_mass(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.5, 5.0), a(-3.0, 3.0);
  const Mat3 R = rotation_from_rotation_vector(Vec3(a(rng), a(rng), a(rng)));
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = u(rng) * Mat3::Identity();
  M.bottomRightCorner<3, 3>() = R * Vec3(u(rng), u(rng), u(rng)).asDiagonal() * R.transpose();
  return M.inverse();
}

/// Bodies 0..3 in a chain of joints with 2 rows each (body 0 to the world, k to k + 1 for k < 2), body 3
/// free; unilateral rows on random bodies (the ground, a jointed body, the free body, two bodies).
Problem random_problem(std::mt19937& rng, bool friction) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Problem p;
  const int n = 4;
  p.J.bodies = n;
  for (int b = 0; b < n; ++b) p.W.push_back(random_inverse_mass(rng));
  for (int k = 0; k < 3; ++k) {
    JointSlot s;
    s.offset = p.J.rows;
    s.count = 2;
    s.body = {k, k == 0 ? -1 : k - 1};
    std::array<RigidBlock, 2> blocks;
    for (int side = 0; side < 2; ++side) {
      blocks[side] = RigidBlock::Zero(2, 6);
      if (s.body[side] >= 0)
        for (int r = 0; r < 2; ++r) blocks[side].row(r) = test::random_vector<6>(rng).transpose();
    }
    p.J.slots.push_back(s);
    p.J.blocks.push_back(blocks);
    p.J.rows += 2;
  }
  p.S = VecX::Constant(p.J.rows, 1e-6);
  p.b = VecX::NullaryExpr(p.J.rows, [&](Eigen::Index) { return u(rng); });
  p.v_free = VecX::NullaryExpr(6 * n, [&](Eigen::Index) { return u(rng); });
  const std::array<std::array<int, 2>, 4> bodies{{{0, -1}, {2, -1}, {3, -1}, {1, 3}}};
  for (const auto& on : bodies) {
    UnilateralRow normal;
    normal.body = on;
    for (int side = 0; side < 2; ++side)
      if (on[side] >= 0) normal.J[side] = test::random_vector<6>(rng);
    normal.c = u(rng);
    const int index = static_cast<int>(p.rows.size());
    p.rows.push_back(normal);
    if (!friction) continue;
    for (int t = 0; t < 2; ++t) {
      UnilateralRow row = normal;
      for (int side = 0; side < 2; ++side)
        if (on[side] >= 0) row.J[side] = test::random_vector<6>(rng);
      row.c = u(rng);
      row.normal = index;
      row.friction = 0.5;
      row.lo = -std::numeric_limits<double>::infinity();
      p.rows.push_back(row);
    }
  }
  return p;
}

/// The full system's blocks, formed densely: A = S + J W Jᵀ, B = J W Uᵀ, D = U W Uᵀ + diag(s), and
/// U v_free.
struct Dense {
  MatX A, B, D;
  VecX Uv;
};

Dense dense_blocks(const Problem& p) {
  const int n = p.J.bodies, m = static_cast<int>(p.rows.size());
  MatX J = MatX::Zero(p.J.rows, 6 * n), U = MatX::Zero(m, 6 * n), W = MatX::Zero(6 * n, 6 * n);
  for (std::size_t j = 0; j < p.J.slots.size(); ++j)
    for (int side = 0; side < 2; ++side)
      if (p.J.slots[j].body[side] >= 0)
        J.block(p.J.slots[j].offset, 6 * p.J.slots[j].body[side], p.J.slots[j].count, 6) = p.J.blocks[j][side];
  for (int r = 0; r < m; ++r)
    for (int side = 0; side < 2; ++side)
      if (p.rows[r].body[side] >= 0) U.block<1, 6>(r, 6 * p.rows[r].body[side]) += p.rows[r].J[side].transpose();
  for (int b = 0; b < n; ++b) W.block<6, 6>(6 * b, 6 * b) = p.W[b];
  Dense d;
  d.A = J * W * J.transpose();
  d.A.diagonal() += p.S;
  d.B = J * W * U.transpose();
  d.D = U * W * U.transpose();
  for (int r = 0; r < m; ++r) d.D(r, r) += p.rows[r].s;
  d.Uv = U * p.v_free;
  return d;
}

struct Solution {
  VecX v, mu, lambda;
  MixedLcpResult result;
};

enum class Method { pivoting, pgs };

Solution solve(Problem& p, int dense_rows, int sweeps = 10000, Method method = Method::pivoting) {
  ReducedSystem system;
  system.set_structure(p.J, dense_rows);
  EXPECT_TRUE(system.factorize(p.J, p.W, p.S));
  MixedLcp lcp;
  if (method == Method::pgs) lcp.set_pivoting_rows(0);
  Solution s;
  s.v = p.v_free;
  s.result = lcp.solve(p.J, system, p.W, nullptr, p.b, p.rows, s.v, s.mu, sweeps, 1e-14);
  s.lambda.resize(p.rows.size());
  for (std::size_t r = 0; r < p.rows.size(); ++r) s.lambda[r] = p.rows[r].lambda;
  return s;
}

class MixedLcpPaths : public ::testing::TestWithParam<int> {};  // dense_rows: 600 dense, 0 CHOLMOD

TEST_P(MixedLcpPaths, ContactRowsMatchTheActiveSetFoundByEnumeration) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    Problem p = random_problem(rng, false);
    const Dense d = dense_blocks(p);
    const int m = static_cast<int>(p.rows.size()), nb = p.J.rows;
    // Every active set: rows in it have w = 0, the others λ = 0; the one with λ ≥ 0 and w ≥ 0.
    VecX best_lambda, best_mu;
    int found = 0;
    for (int set = 0; set < (1 << m); ++set) {
      std::vector<int> active;
      for (int r = 0; r < m; ++r)
        if (set & (1 << r)) active.push_back(r);
      const int k = static_cast<int>(active.size());
      MatX K = MatX::Zero(nb + k, nb + k);
      VecX rhs(nb + k);
      K.topLeftCorner(nb, nb) = d.A;
      rhs.head(nb) = p.b;
      for (int i = 0; i < k; ++i) {
        K.block(0, nb + i, nb, 1) = d.B.col(active[i]);
        K.block(nb + i, 0, 1, nb) = d.B.col(active[i]).transpose();
        for (int l = 0; l < k; ++l) K(nb + i, nb + l) = d.D(active[i], active[l]);
        rhs[nb + i] = p.rows[active[i]].c - d.Uv[active[i]];
      }
      const VecX x = K.fullPivLu().solve(rhs);
      VecX lambda = VecX::Zero(m);
      for (int i = 0; i < k; ++i) lambda[active[i]] = x[nb + i];
      const VecX mu = x.head(nb);
      const VecX w = d.B.transpose() * mu + d.D * lambda + d.Uv;
      bool ok = lambda.minCoeff() >= -1e-12;
      for (int r = 0; r < m; ++r) ok = ok && (w[r] - p.rows[r].c >= -1e-10);
      if (ok) ++found, best_lambda = lambda, best_mu = mu;
    }
    ASSERT_EQ(found, 1) << "trial " << trial;  // Z positive definite: exactly one solution
    // By pivoting, and by PGS.
    Problem again = p;
    const Solution s = solve(p, GetParam());
    const Solution pgs = solve(again, GetParam(), 10000, Method::pgs);
    EXPECT_TRUE(s.result.converged);
    EXPECT_GT(s.result.pivots, 0);
    EXPECT_EQ(s.result.sweeps, 0);
    EXPECT_TRUE(pgs.result.converged);
    EXPECT_GT(pgs.result.sweeps, 0);
    EXPECT_LT((s.lambda - best_lambda).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
    EXPECT_LT((s.mu - best_mu).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
    EXPECT_LT((pgs.lambda.head(m) - best_lambda).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
    EXPECT_LT((pgs.mu - best_mu).cwiseAbs().maxCoeff(), 1e-8) << "trial " << trial;
  }
}

// Both methods: pivoting with friction rows at their bounds taken as ±μλ_n of their normal
// (mixed_lcp_pivoting.cpp) settles in solves, not sweeps; PGS meets the same conditions.
TEST_P(MixedLcpPaths, FrictionRowsMeetEveryComplementarityCondition) {
  std::mt19937 rng(11);
  int sliding = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Problem base = random_problem(rng, true);
    Problem p = base;
    const Method method = trial % 2 == 0 ? Method::pivoting : Method::pgs;
    const Dense d = dense_blocks(p);
    const Solution s = solve(p, GetParam(), 10000, method);
    ASSERT_TRUE(s.result.converged) << "trial " << trial;
    if (method == Method::pivoting) {
      EXPECT_EQ(s.result.sweeps, 0) << "trial " << trial;
      EXPECT_GT(s.result.pivots, 0) << "trial " << trial;
    }
    // The bilateral rows exactly, v = v_free + W(Jᵀμ + Uᵀλ) as the dense blocks say.
    EXPECT_LT((d.A * s.mu + d.B * s.lambda - p.b).cwiseAbs().maxCoeff(), 1e-9) << "trial " << trial;
    const VecX w = d.B.transpose() * s.mu + d.D * s.lambda + d.Uv;
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
      const UnilateralRow& row = p.rows[r];
      const double lo = row.normal >= 0 ? -row.friction * s.lambda[row.normal] : 0.0;
      const double hi = row.normal >= 0 ? row.friction * s.lambda[row.normal] : std::numeric_limits<double>::infinity();
      const double residual = w[r] - row.c;
      EXPECT_GE(s.lambda[r], lo - 1e-12);
      EXPECT_LE(s.lambda[r], hi + 1e-12);
      if (s.lambda[r] > lo + 1e-9 && s.lambda[r] < hi - 1e-9) {
        EXPECT_NEAR(residual, 0.0, 1e-8) << "trial " << trial << " row " << r;
      } else if (s.lambda[r] <= lo + 1e-9 && !(hi - lo <= 2e-9)) {
        EXPECT_GE(residual, -1e-8) << "trial " << trial << " row " << r;
      } else if (s.lambda[r] >= hi - 1e-9 && !(hi - lo <= 2e-9)) {
        EXPECT_LE(residual, 1e-8) << "trial " << trial << " row " << r;
      }
      if (row.normal >= 0 && hi > 1e-9 && std::abs(s.lambda[r]) >= hi - 1e-9) ++sliding;
    }
  }
  EXPECT_GT(sliding, 10);  // the random systems do put friction rows on the pyramid's edges
}

TEST_P(MixedLcpPaths, WarmStartFromTheSolutionConvergesInOneSweep) {
  std::mt19937 rng(13);
  Problem p = random_problem(rng, true);
  const Solution cold = solve(p, GetParam(), 10000, Method::pgs);  // leaves the solution in p.rows as the warm start
  const Solution warm = solve(p, GetParam(), 10000, Method::pgs);
  std::printf("cold start %d sweeps, warm start %d\n", cold.result.sweeps, warm.result.sweeps);
  EXPECT_GT(cold.result.sweeps, 1);
  EXPECT_EQ(warm.result.sweeps, 1);
  EXPECT_LT((warm.lambda - cold.lambda).cwiseAbs().maxCoeff(), 1e-10);
  // Pivoting from the solution's sets (some friction rows on their bounds): one solve, the same λ.
  const Solution pivoted = solve(p, GetParam());
  EXPECT_EQ(pivoted.result.pivots, 1);
  EXPECT_EQ(pivoted.result.sweeps, 0);
  EXPECT_LT((pivoted.lambda - cold.lambda).cwiseAbs().maxCoeff(), 1e-8);
}

// At the cap (mixed_lcp.hpp): a solve cut short after one sweep from a cold start is not converged; one
// whose last sweep moved the impulses by under kCapResidual is, and its λ is then an approximate solution
// (against the fully converged reference, within a few kCapResidual of the largest impulse).
TEST_P(MixedLcpPaths, AtTheCapConvergedOnlyWhenTheLastSweepChangedLittle) {
  std::mt19937 rng(17);
  int approximate = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Problem base = random_problem(rng, true);
    Problem reference = base;
    const Solution exact = solve(reference, GetParam(), 10000, Method::pgs);
    ASSERT_TRUE(exact.result.converged);
    if (exact.result.sweeps < 4) continue;
    Problem one = base;
    const Solution first = solve(one, GetParam(), 1, Method::pgs);
    EXPECT_FALSE(first.result.converged) << "trial " << trial << " residual " << first.result.residual;
    EXPECT_GT(first.result.residual, MixedLcp::kCapResidual);
    for (int cap = 2; cap < exact.result.sweeps; ++cap) {
      Problem capped = base;
      const Solution s = solve(capped, GetParam(), cap, Method::pgs);
      ASSERT_EQ(s.result.sweeps, cap);
      EXPECT_EQ(s.result.converged, s.result.residual <= MixedLcp::kCapResidual);
      if (!s.result.converged) continue;
      ++approximate;
      const double largest = exact.lambda.cwiseAbs().maxCoeff();
      EXPECT_LT((s.lambda - exact.lambda).cwiseAbs().maxCoeff(), 0.05 * largest) << "trial " << trial << " cap " << cap;
      break;
    }
  }
  EXPECT_GT(approximate, 5);  // the criterion does accept approximate solutions
}

/// Issue 15: `bodies` bodies, 0..3 jointed as random_problem's, the rest free, and `patches` contact patches
/// as the contact code makes them: on a random body and the ground or a second body, a random normal n,
/// 1–4 points in the plane ⟂ n around a centroid, a normal row U = ±(n, r_i × n) per point (r_i from each
/// body's random centre), then tangent rows ±(t, r × t) at the centroid and, for more than one point, a
/// torsion row ±(0, n), each bounded by ±μΣλ_n of its patch's normals.
Problem random_patch_problem(std::mt19937& rng, int bodies, int patches) {
  Problem p = random_problem(rng, false);
  p.rows.clear();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> pick(0, bodies - 1), points(1, 4);
  for (int b = p.J.bodies; b < bodies; ++b) p.W.push_back(random_inverse_mass(rng));
  p.J.bodies = bodies;
  p.v_free = VecX::NullaryExpr(6 * bodies, [&](Eigen::Index) { return u(rng); });
  std::vector<Vec3> centre(bodies);
  for (Vec3& c : centre) c = test::random_vector<3>(rng);
  for (int k = 0; k < patches; ++k) {
    std::array<int, 2> on{pick(rng), pick(rng)};
    if (on[1] == on[0] || k % 3 == 0) on[1] = -1;  // the ground
    const Vec3 n = test::random_vector<3>(rng).normalized();
    const Vec3 t1 = n.cross(Vec3(u(rng), u(rng), u(rng))).normalized(), t2 = n.cross(t1);
    const Vec3 middle = test::random_vector<3>(rng);
    const auto row_at = [&](const Vec3& x, const Vec3& d, bool turn) {
      UnilateralRow row;
      row.body = on;
      for (int side = 0; side < 2; ++side)
        if (on[side] >= 0) {
          const Vec3 r = x - centre[on[side]];
          row.J[side] << (turn ? Vec3::Zero() : d), (turn ? d : Vec3(r.cross(d)));
          if (side == 1) row.J[side] = -row.J[side];
        }
      return row;
    };
    const int first = static_cast<int>(p.rows.size()), count = points(rng);
    for (int i = 0; i < count; ++i) {
      UnilateralRow row = row_at(middle + 0.3 * (u(rng) * t1 + u(rng) * t2), n, false);
      row.c = u(rng);
      p.rows.push_back(row);
    }
    for (int t = 0; t < (count > 1 ? 3 : 2); ++t) {
      UnilateralRow row = row_at(middle, t == 0 ? t1 : t == 1 ? t2 : n, t == 2);
      row.c = 0.3 * u(rng);
      row.normal = first;
      row.normals = count;
      row.friction = t < 2 ? 0.5 : 0.1;
      row.lo = -std::numeric_limits<double>::infinity();
      p.rows.push_back(row);
    }
  }
  return p;
}

// Issue 15: sets beyond the 64 rows that were pivoted before are pivoted too, a connected component of Z
// at a time, and contact patches (one friction cone bounded by μΣλ_n) meet every complementarity condition.
TEST_P(MixedLcpPaths, LargePatchSetsArePivotedAndMeetEveryComplementarityCondition) {
  std::mt19937 rng(23);
  int sliding = 0;
  for (int trial = 0; trial < 6; ++trial) {
    Problem p = random_patch_problem(rng, 40, 20);
    ASSERT_GT(p.rows.size(), 64u);  // beyond the 64 rows pivoted before issue 15, within kPivotingRows
    ASSERT_LE(p.rows.size(), static_cast<std::size_t>(MixedLcp::kPivotingRows));
    const Dense d = dense_blocks(p);
    const Solution s = solve(p, GetParam());
    ASSERT_TRUE(s.result.converged) << "trial " << trial;
    EXPECT_EQ(s.result.sweeps, 0) << "trial " << trial << ": PGS finished it";
    EXPECT_LT((d.A * s.mu + d.B * s.lambda - p.b).cwiseAbs().maxCoeff(), 1e-9) << "trial " << trial;
    const VecX w = d.B.transpose() * s.mu + d.D * s.lambda + d.Uv;
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
      const UnilateralRow& row = p.rows[r];
      double load = 0.0;
      if (row.normal >= 0) load = s.lambda.segment(row.normal, row.normals).sum();
      const double lo = row.normal >= 0 ? -row.friction * load : 0.0;
      const double hi = row.normal >= 0 ? row.friction * load : std::numeric_limits<double>::infinity();
      const double residual = w[r] - row.c;
      EXPECT_GE(s.lambda[r], lo - 1e-10) << "trial " << trial << " row " << r;
      EXPECT_LE(s.lambda[r], hi + 1e-10) << "trial " << trial << " row " << r;
      if (s.lambda[r] > lo + 1e-9 && s.lambda[r] < hi - 1e-9) {
        EXPECT_NEAR(residual, 0.0, 1e-7) << "trial " << trial << " row " << r;
      } else if (s.lambda[r] <= lo + 1e-9 && !(hi - lo <= 2e-9)) {
        EXPECT_GE(residual, -1e-7) << "trial " << trial << " row " << r;
      } else if (s.lambda[r] >= hi - 1e-9 && !(hi - lo <= 2e-9)) {
        EXPECT_LE(residual, 1e-7) << "trial " << trial << " row " << r;
      }
      if (row.normal >= 0 && hi > 1e-9 && std::abs(s.lambda[r]) >= hi - 1e-9) ++sliding;
    }
  }
  EXPECT_GT(sliding, 10);  // patches do slide: friction rows on the edges of their Σλ_n bounds
}

INSTANTIATE_TEST_SUITE_P(DenseAndSparse, MixedLcpPaths, ::testing::Values(600, 0), [](const auto& info) {
  return info.param == 0 ? std::string("cholmod") : std::string("dense");
});

}  // namespace
}  // namespace affix
