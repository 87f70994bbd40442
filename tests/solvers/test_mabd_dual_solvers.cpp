// The structured dual solvers of M-ABD (He 2026 §5.2–5.3: block Thomas for chains, ABD-ABA for trees)
// and the joint-graph classification that picks them, against the direct sparse Cholesky of the whole
// dual matrix (dual_direct.hpp) on the same random KKT systems: chains with and without joints to the
// world at their ends, random trees with world joints on some bodies, a ring and a grid (the direct
// solver's cases), all of them in one system, and redundant rows (the regularised solve) against a
// dense least-squares KKT solve. Bodies and joints are numbered in a random order and joints face a
// random way, so that the solvers must find the chain order and the tree themselves.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>

#include "affix/error.hpp"
#include "affix/solvers/mabd/dual_solver.hpp"

namespace affix {
namespace {

constexpr double kTolerance = 1e-10;
constexpr double kStep = 0.01;  // h

/// A random KKT system built body by body and joint by joint.
class RandomKkt {
 public:
  explicit RandomKkt(unsigned seed) : rng_(seed) {
    // A few shared H₀ = M + h²K₀: M a random mass-like SPD matrix, K₀ a stiff material's rest Hessian.
    for (int i = 0; i < 3; ++i) {
      const Mat12 B = random_matrix<12, 12>();
      const Mat12 mass = B * B.transpose() / 12.0 + Mat12::Identity();
      factors_.push_back(std::make_unique<CorotatedFactor>(
          mass, rest_stiffness(1e-3, Lame::from_young(1e8 * (i + 1), 0.3)), kStep));
    }
  }

  KktSystem system;

  /// Adds n bodies with random rotations and gradients; returns the index of the first.
  int add_bodies(int n) {
    const int first = static_cast<int>(system.bodies.size());
    for (int i = 0; i < n; ++i) {
      std::normal_distribution<double> normal;
      const Quat rotation = Quat(normal(rng_), normal(rng_), normal(rng_), normal(rng_)).normalized();
      const Mat3 A = rotation.toRotationMatrix() * (Mat3::Identity() + 0.01 * random_matrix<3, 3>());
      KktBody body{factors_[pick(3)].get(), CoRotation(A, RotationExtraction::polar), random_matrix<12, 1>()};
      system.bodies.push_back(body);
    }
    return first;
  }

  /// A joint of `rows` random rows (3–6 when 0) between b1 and b2 (−1: the world), facing a random way.
  void add_joint(int b1, int b2, int rows = 0) {
    KktJoint joint;
    if (std::bernoulli_distribution(0.5)(rng_)) std::swap(b1, b2);
    joint.body1 = b1, joint.body2 = b2;
    const int m = rows > 0 ? rows : 3 + pick(4);
    joint.G1 = random_matrix<Eigen::Dynamic, 12>(m), joint.G2 = random_matrix<Eigen::Dynamic, 12>(m);
    joint.residual = 0.1 * random_matrix<Eigen::Dynamic, 1>(m);
    system.joints.push_back(joint);
  }

  /// Adds joints between the given pairs in a random order.
  void add_joints(std::vector<std::pair<int, int>> pairs) {
    std::shuffle(pairs.begin(), pairs.end(), rng_);
    for (const auto& [a, b] : pairs) add_joint(a, b);
  }

  /// n new bodies in a random order of indices.
  std::vector<int> new_bodies(int n) {
    std::vector<int> ids(n);
    std::iota(ids.begin(), ids.end(), add_bodies(n));
    std::shuffle(ids.begin(), ids.end(), rng_);
    return ids;
  }

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

 private:
  template <int R, int C>
  Eigen::Matrix<double, R, C> random_matrix(int rows = R) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::Matrix<double, R, C> M(rows, C);
    for (int i = 0; i < M.size(); ++i) M.data()[i] = u(rng_);
    return M;
  }

  std::mt19937 rng_;
  std::vector<std::unique_ptr<CorotatedFactor>> factors_;
};

/// A chain of n bodies, with a world joint at neither, one or both ends.
void add_chain(RandomKkt& kkt, int n, bool world_first, bool world_last) {
  const std::vector<int> b = kkt.new_bodies(n);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i + 1 < n; ++i) pairs.emplace_back(b[i], b[i + 1]);
  if (world_first) pairs.emplace_back(b.front(), -1);
  if (world_last) pairs.emplace_back(b.back(), -1);
  kkt.add_joints(pairs);
}

/// A random tree of n bodies (each body's parent one of the bodies before it), world joints on some.
void add_tree(RandomKkt& kkt, int n, double world_share) {
  const std::vector<int> b = kkt.new_bodies(n);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 1; i < n; ++i) pairs.emplace_back(b[kkt.pick(i)], b[i]);
  for (int i = 0; i < n; ++i)
    if (kkt.chance(world_share)) pairs.emplace_back(b[i], -1);
  kkt.add_joints(pairs);
}

/// A closed ring of n bodies, with a world joint on one of them or on none.
void add_ring(RandomKkt& kkt, int n, bool world = true) {
  const std::vector<int> b = kkt.new_bodies(n);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i) pairs.emplace_back(b[i], b[(i + 1) % n]);
  if (world) pairs.emplace_back(b[0], -1);
  kkt.add_joints(pairs);
}

void add_grid(RandomKkt& kkt, int w, int h) {
  const std::vector<int> b = kkt.new_bodies(w * h);
  std::vector<std::pair<int, int>> pairs;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (x + 1 < w) pairs.emplace_back(b[y * w + x], b[y * w + x + 1]);
      if (y + 1 < h) pairs.emplace_back(b[y * w + x], b[(y + 1) * w + x]);
    }
  }
  pairs.emplace_back(b[0], -1), pairs.emplace_back(b[w - 1], -1);
  kkt.add_joints(pairs);
}

VecX stacked(const std::vector<Vec12>& dq) {
  VecX x(12 * dq.size());
  for (std::size_t b = 0; b < dq.size(); ++b) x.segment<12>(12 * b) = dq[b];
  return x;
}

double relative(const VecX& x, const VecX& reference) {
  return reference.norm() > 0.0 ? (x - reference).norm() / reference.norm() : x.norm();
}

// The largest differences seen, printed at the end for the record.
double worst_dq = 0.0, worst_lambda = 0.0, worst_residual = 0.0;

/// Solves with `kind` and checks it against the direct solver and the KKT equations; returns which
/// solvers the groups went to.
DualSolver::Counts expect_matches_direct(const KktSystem& system, DualSolverKind kind) {
  DualDirectSolver direct;
  const KktSolution reference = direct.solve(system);
  EXPECT_FALSE(direct.regularised());
  DualSolver solver;
  const KktSolution solution = solver.solve(system, kind);
  EXPECT_FALSE(solver.regularised());
  const double dq = relative(stacked(solution.dq), stacked(reference.dq));
  const double lambda = relative(solution.lambda, reference.lambda);
  const double residual = kkt_residual(system, solution);
  EXPECT_LT(dq, kTolerance) << dual_solver_name(kind);
  EXPECT_LT(lambda, kTolerance) << dual_solver_name(kind);
  EXPECT_LT(residual, kTolerance) << dual_solver_name(kind);
  worst_dq = std::max(worst_dq, dq), worst_lambda = std::max(worst_lambda, lambda);
  worst_residual = std::max(worst_residual, residual);
  return solver.counts();
}

std::vector<ComponentKind> kinds(const KktSystem& system) {
  std::vector<ComponentKind> result;
  const JointGraph graph(system);
  for (const JointComponent& component : graph.components()) result.push_back(component.kind());
  return result;
}

using Kinds = std::vector<ComponentKind>;
constexpr ComponentKind kChain = ComponentKind::chain, kTree = ComponentKind::tree;

TEST(MabdDualSolvers, ChainsMatchTheDirectSolve) {
  for (int ends = 0; ends < 4; ++ends) {
    for (int n : {1, 2, 3, 17}) {
      RandomKkt kkt(100 * ends + n);
      add_chain(kkt, n, ends & 1, ends & 2);
      if (kkt.system.joints.empty()) continue;
      ASSERT_EQ(kinds(kkt.system), Kinds{kChain}) << n << " bodies, ends " << ends;
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::chain).chains, 1);
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::automatic).chains, 1);
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::tree).trees, 1);  // a path is a tree too
    }
  }
}

TEST(MabdDualSolvers, ChainOrderIsFoundWhateverTheNumbering) {
  RandomKkt kkt(7);
  add_chain(kkt, 30, true, false);
  const JointGraph graph(kkt.system);
  ASSERT_EQ(graph.components().size(), 1u);
  const std::vector<int>& order = graph.components()[0].joints;
  ASSERT_EQ(order.size(), kkt.system.joints.size());
  const auto bodies = [&](int j) { return std::pair{kkt.system.joints[j].body1, kkt.system.joints[j].body2}; };
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    const auto [a1, a2] = bodies(order[i]);
    const auto [b1, b2] = bodies(order[i + 1]);
    EXPECT_TRUE((a1 >= 0 && (a1 == b1 || a1 == b2)) || (a2 >= 0 && (a2 == b1 || a2 == b2))) << i;
  }
}

TEST(MabdDualSolvers, TreesMatchTheDirectSolve) {
  for (unsigned seed = 0; seed < 12; ++seed) {
    RandomKkt kkt(1000 + seed);
    add_tree(kkt, 5 + 10 * seed, 0.2);
    const Kinds found = kinds(kkt.system);
    ASSERT_EQ(found.size(), 1u);
    ASSERT_TRUE(found[0] == kTree || found[0] == kChain) << seed;  // a small random tree may be a path
    EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::tree).trees, 1);
    const DualSolver::Counts counts = expect_matches_direct(kkt.system, DualSolverKind::automatic);
    EXPECT_EQ(counts.chains + counts.trees, 1);
    EXPECT_EQ(counts.direct, 0);
  }
}

TEST(MabdDualSolvers, TreeRootIsABodyJointToTheWorld) {
  RandomKkt kkt(5);
  add_tree(kkt, 40, 0.0);
  kkt.add_joint(17, -1);
  const JointGraph graph(kkt.system);
  const JointComponent& tree = graph.components()[0];
  ASSERT_TRUE(tree.is_tree);
  EXPECT_EQ(tree.root, 17);
  EXPECT_EQ(tree.leaves_first.back(), 17);
  EXPECT_EQ(graph.parent(17), -1);
  // Children before parents.
  std::vector<int> place(kkt.system.bodies.size());
  for (std::size_t i = 0; i < tree.leaves_first.size(); ++i) place[tree.leaves_first[i]] = static_cast<int>(i);
  for (int b : tree.bodies) {
    if (b == 17) continue;
    EXPECT_LT(place[b], place[graph.parent(b)]);
  }
}

TEST(MabdDualSolvers, LoopsAndGraphsGoToTheDirectSolve) {
  for (bool world : {true, false}) {  // without: every body has 2 joints, but they close a ring
    RandomKkt ring(11);
    add_ring(ring, 8, world);
    EXPECT_EQ(kinds(ring.system), Kinds{ComponentKind::loop});
    EXPECT_EQ(expect_matches_direct(ring.system, DualSolverKind::automatic).direct, 1);
  }

  RandomKkt grid(12);
  add_grid(grid, 5, 4);
  EXPECT_EQ(kinds(grid.system), Kinds{ComponentKind::graph});
  expect_matches_direct(grid.system, DualSolverKind::automatic);
}

TEST(MabdDualSolvers, MixedSystemSolvesEachGroupOnItsOwn) {
  RandomKkt kkt(21);
  add_chain(kkt, 12, true, true);
  add_tree(kkt, 25, 0.3);
  kkt.add_bodies(3);  // free bodies
  add_ring(kkt, 6);
  add_grid(kkt, 3, 3);
  add_chain(kkt, 4, false, false);
  std::vector<ComponentKind> found = kinds(kkt.system);
  EXPECT_EQ(std::count(found.begin(), found.end(), ComponentKind::trivial), 3);
  EXPECT_EQ(std::count(found.begin(), found.end(), ComponentKind::loop), 1);
  EXPECT_EQ(std::count(found.begin(), found.end(), ComponentKind::graph), 1);
  EXPECT_EQ(std::count(found.begin(), found.end(), kChain) + std::count(found.begin(), found.end(), kTree), 3);
  const DualSolver::Counts counts = expect_matches_direct(kkt.system, DualSolverKind::automatic);
  EXPECT_EQ(counts.chains + counts.trees, 3);
  EXPECT_EQ(counts.direct, 2);
}

TEST(MabdDualSolvers, SmallShapesAreClassified) {
  RandomKkt kkt(3);
  const int a = kkt.add_bodies(2);
  kkt.add_joint(a, a + 1), kkt.add_joint(a, a + 1);  // two joints between the same bodies: a chain of 2
  EXPECT_EQ(kinds(kkt.system), Kinds{kChain});
  EXPECT_FALSE(JointGraph(kkt.system).components()[0].is_tree);
  expect_matches_direct(kkt.system, DualSolverKind::chain);
  EXPECT_THROW(DualSolver().solve(kkt.system, DualSolverKind::tree), InputError);
  kkt.add_joint(a, -1);  // a third joint on body a
  EXPECT_EQ(kinds(kkt.system), Kinds{ComponentKind::loop});

  RandomKkt star(4);  // one body, three world joints: a tree of one body (3 joints on it)
  star.add_bodies(1);
  star.add_joint(0, -1, 3), star.add_joint(-1, 0, 4), star.add_joint(0, -1, 3);
  EXPECT_EQ(kinds(star.system), Kinds{kTree});
  expect_matches_direct(star.system, DualSolverKind::tree);
  star.add_joint(0, -1, 3);  // 13 rows on 12 DOFs
  EXPECT_EQ(kinds(star.system), Kinds{ComponentKind::graph});

  RandomKkt middle(5);  // a path with a world joint on a middle body: a tree, not a chain
  const std::vector<int> b = middle.new_bodies(3);
  middle.add_joint(b[0], b[1]), middle.add_joint(b[1], b[2]), middle.add_joint(b[1], -1);
  EXPECT_EQ(kinds(middle.system), Kinds{kTree});
  expect_matches_direct(middle.system, DualSolverKind::automatic);
}

TEST(MabdDualSolvers, JointWithoutMovingBodiesTakesNoForce) {
  RandomKkt kkt(25);
  add_tree(kkt, 20, 0.2);
  const KktSystem without = kkt.system;
  kkt.add_joint(-1, -1, 4);
  EXPECT_EQ(JointGraph(kkt.system).detached_joints(), std::vector<int>{static_cast<int>(without.joints.size())});
  const KktSolution solution = DualSolver().solve(kkt.system, DualSolverKind::automatic);
  const KktSolution reference = DualDirectSolver().solve(without);
  EXPECT_LT(relative(stacked(solution.dq), stacked(reference.dq)), kTolerance);
  EXPECT_LT(relative(solution.lambda.head(reference.lambda.size()), reference.lambda), kTolerance);
  EXPECT_EQ(solution.lambda.tail(4), Eigen::Vector4d::Zero());
}

TEST(MabdDualSolvers, AskingForTheWrongStructureIsAnInputError) {
  RandomKkt tree(31);
  add_tree(tree, 30, 0.2);
  ASSERT_EQ(kinds(tree.system), Kinds{kTree});
  try {
    DualSolver().solve(tree.system, DualSolverKind::chain);
    ADD_FAILURE() << "a tree solved as a chain";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"chain\" needs every group of jointed bodies to be a chain"),
              std::string::npos)
        << e.what();
  }
  RandomKkt ring(32);
  add_ring(ring, 5, false);
  for (DualSolverKind kind : {DualSolverKind::chain, DualSolverKind::tree}) {
    try {
      DualSolver().solve(ring.system, kind);
      ADD_FAILURE() << "a ring solved as a " << dual_solver_name(kind);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("closes a loop"), std::string::npos) << e.what();
    }
  }
  expect_matches_direct(ring.system, DualSolverKind::direct);
}

TEST(MabdDualSolvers, ClassificationIsKeptWhileTheJointsAreUnchanged) {
  RandomKkt kkt(41);
  add_chain(kkt, 10, true, false);
  DualSolver solver;
  solver.solve(kkt.system, DualSolverKind::automatic);
  kkt.system.bodies[3].gradient *= 2.0;  // new values, same graph
  kkt.system.joints[2].residual *= -1.0;
  const KktSolution again = solver.solve(kkt.system, DualSolverKind::automatic);
  EXPECT_EQ(solver.classifications(), 1);
  EXPECT_LT(relative(again.lambda, DualDirectSolver().solve(kkt.system).lambda), kTolerance);
  kkt.add_joint(4, -1);  // the chain becomes a tree
  solver.solve(kkt.system, DualSolverKind::automatic);
  EXPECT_EQ(solver.classifications(), 2);
  EXPECT_EQ(solver.graph()->components()[0].kind(), kTree);
}

/// The dense KKT matrix of Eq. 26 and its right-hand side.
std::pair<MatX, VecX> dense_kkt(const KktSystem& system) {
  const std::vector<int> offsets = system.dual_offsets();
  const int n = 12 * static_cast<int>(system.bodies.size()), m = offsets.back();
  MatX K = MatX::Zero(n + m, n + m);
  VecX rhs = VecX::Zero(n + m);
  for (std::size_t b = 0; b < system.bodies.size(); ++b) {
    K.block<12, 12>(12 * b, 12 * b) = system.bodies[b].hessian();
    rhs.segment<12>(12 * b) = -system.bodies[b].gradient;
  }
  for (std::size_t j = 0; j < system.joints.size(); ++j) {
    const KktJoint& joint = system.joints[j];
    const int row = n + offsets[j];
    const auto put = [&](int body, const CompactBlock& G) {
      K.block(row, 12 * body, joint.rows(), 12) += G;
      K.block(12 * body, row, 12, joint.rows()) += G.transpose();
    };
    if (joint.body1 >= 0) put(joint.body1, joint.G1);
    if (joint.body2 >= 0) put(joint.body2, joint.G2);
    rhs.segment(row, joint.rows()) = -joint.residual;
  }
  return {K, rhs};
}

TEST(MabdDualSolvers, RedundantRowsAreRegularisedLikeTheDirectSolve) {
  // A joint repeating rows of another (a ball inside a hinge) on a chain's end and on a tree's root:
  // D is singular, r in its range. Δq is still unique; compare it with a dense least-squares KKT solve.
  for (DualSolverKind kind : {DualSolverKind::chain, DualSolverKind::tree}) {
    RandomKkt kkt(51);
    if (kind == DualSolverKind::chain) {
      kkt.add_bodies(1);
      kkt.add_joint(0, -1, 5);
    } else {
      add_tree(kkt, 12, 0.0);
      kkt.add_joint(0, -1, 5);
    }
    KktJoint copy = kkt.system.joints.back();
    copy.G1.conservativeResize(3, 12), copy.G2.conservativeResize(3, 12), copy.residual.conservativeResize(3);
    kkt.system.joints.push_back(copy);
    DualSolver solver;
    const KktSolution solution = solver.solve(kkt.system, kind);
    EXPECT_TRUE(solver.regularised());
    const auto [K, rhs] = dense_kkt(kkt.system);
    const VecX x = K.completeOrthogonalDecomposition().solve(rhs);
    const VecX dq = stacked(solution.dq);
    EXPECT_LT(relative(dq, x.head(dq.size())), 1e-6) << dual_solver_name(kind);
    EXPECT_LT(kkt_residual(kkt.system, solution), 1e-8) << dual_solver_name(kind);
  }
}

TEST(MabdDualSolvers, LongChainSolves) {
  RandomKkt kkt(61);
  add_chain(kkt, 10000, true, false);  // 10,000 joints
  DualSolver solver;
  const auto start = std::chrono::steady_clock::now();
  const KktSolution solution = solver.solve(kkt.system, DualSolverKind::chain);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "10,000-joint chain: block Thomas " << 1e3 * seconds << " ms\n";
  EXPECT_LT(kkt_residual(kkt.system, solution), kTolerance);
  EXPECT_LT(relative(solution.lambda, DualDirectSolver().solve(kkt.system).lambda), kTolerance);
}

TEST(MabdDualSolvers, WorstDifferences) {
  std::cout << "largest relative difference from the direct solve: dq " << worst_dq << ", lambda "
            << worst_lambda << "; largest KKT residual " << worst_residual << "\n";
}

/// Timings for the record (not part of the run): --gtest_also_run_disabled_tests.
TEST(MabdDualSolvers, DISABLED_Timings) {
  for (int n : {10000, 100000}) {
    for (bool chain : {true, false}) {
      RandomKkt kkt(71);
      if (chain) add_chain(kkt, n + 1, false, false);
      else add_tree(kkt, n + 1, 0.0);
      const auto time = [&](auto&& solve) {
        const auto start = std::chrono::steady_clock::now();
        solve();
        return 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      };
      DualSolver solver;
      DualDirectSolver direct;
      KktSolution structured, reference;
      const double first = time([&] { structured = solver.solve(kkt.system, DualSolverKind::automatic); });
      const double again = time([&] { structured = solver.solve(kkt.system, DualSolverKind::automatic); });
      const double direct_ms = time([&] { reference = direct.solve(kkt.system); });
      std::cout << n << "-joint " << (chain ? "chain" : "tree") << ": " << first
                << " ms (first, with classification), " << again << " ms (again); direct " << direct_ms << " ms; relative λ difference "
                << relative(structured.lambda, reference.lambda) << "\n";
    }
  }
}

}  // namespace
}  // namespace affix
