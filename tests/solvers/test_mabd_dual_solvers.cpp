// The structured dual solvers of M-ABD (He 2026 §5.2–5.5: block Thomas for chains, ABD-ABA for trees,
// the loop Schur complement for loops, Gauss–Seidel for graphs) and the joint-graph classification that
// picks them, against the direct sparse Cholesky of the whole dual matrix (dual_direct.hpp) on the same
// random KKT systems: chains with and without joints to the world at their ends, random trees with
// world joints on some bodies, rings, loops on trees, a grid, a ball-joint net with pinned corners, all
// of them in one system, and redundant rows (the regularised solve: a ball inside a hinge, a four-bar
// loop) against a dense least-squares KKT solve. Bodies and joints are numbered in a random order and joints face a
// random way, so that the solvers must find the chain order and the tree themselves.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <numeric>
#include <cmath>
#include <random>

#include "affix/body/affine_body.hpp"
#include "affix/error.hpp"
#include "affix/solvers/mabd/dual_solver.hpp"
#include "support/mabd_factors.hpp"

namespace affix {
namespace {

constexpr double kTolerance = 1e-10;
constexpr double kStep = 0.01;  // h

/// A random KKT system built body by body and joint by joint.
class RandomKkt {
 public:
  explicit RandomKkt(unsigned seed) : rng_(seed) {
    factors_ = test::random_corotated_factors([&] { return random_matrix<12, 12>(); }, kStep);
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

// Gauss–Seidel run to round-off, where a test compares it with the direct solve at kTolerance.
const GaussSeidelLimits kToRoundOff{1e-14, 100000};

/// Solves with `kind` and checks it against the direct solver and the KKT equations; returns which
/// solvers the groups went to.
DualSolver::Counts expect_matches_direct(const KktSystem& system, DualSolverKind kind,
                                         double tolerance = kTolerance) {
  DualDirectSolver direct;
  const KktSolution reference = direct.solve(system);
  EXPECT_FALSE(direct.regularised());
  DualSolver solver;
  const KktSolution solution = solver.solve(system, kind, kToRoundOff);
  EXPECT_FALSE(solver.regularised());
  const double dq = relative(stacked(solution.dq), stacked(reference.dq));
  const double lambda = relative(solution.lambda, reference.lambda);
  const double residual = kkt_residual(system, solution);
  EXPECT_LT(dq, tolerance) << dual_solver_name(kind);
  EXPECT_LT(lambda, tolerance) << dual_solver_name(kind);
  EXPECT_LT(residual, tolerance) << dual_solver_name(kind);
  if (tolerance > kTolerance) return solver.counts();  // not the structured solvers' record
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

TEST(MabdDualSolvers, LoopsAndGraphsGoToTheDirectSolveUnlessForced) {
  for (bool world : {true, false}) {  // without: every body has 2 joints, but they close a ring
    RandomKkt ring(11);
    add_ring(ring, 8, world);
    EXPECT_EQ(kinds(ring.system), Kinds{ComponentKind::loop});
    EXPECT_EQ(expect_matches_direct(ring.system, DualSolverKind::automatic).direct, 1);
    EXPECT_EQ(expect_matches_direct(ring.system, DualSolverKind::loop).loops, 1);
  }

  RandomKkt grid(12);
  add_grid(grid, 5, 4);  // 12 cycles: more than kMaxLoopBreakers
  EXPECT_EQ(kinds(grid.system), Kinds{ComponentKind::graph});
  EXPECT_EQ(expect_matches_direct(grid.system, DualSolverKind::automatic).direct, 1);
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
  add_grid(kkt, 4, 4);  // 9 cycles
  const DualSolver::Counts counts = expect_matches_direct(kkt.system, DualSolverKind::automatic);
  EXPECT_EQ(counts.chains + counts.trees, 3);
  EXPECT_EQ(counts.direct, 3);
  const DualSolver::Counts forced = expect_matches_direct(kkt.system, DualSolverKind::gauss_seidel, 1e-8);
  EXPECT_EQ(forced.gauss_seidel, 6);
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
    const auto put = [&](int body, const JointRows& G) {
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

TEST(MabdDualSolvers, LoopsMatchTheDirectSolve) {
  // Rings: the spanning tree is a chain (block Thomas), or a tree where a world joint is in the middle.
  for (int n : {3, 4, 9, 40}) {
    for (bool world : {true, false}) {
      RandomKkt kkt(200 + n + world);
      add_ring(kkt, n, world);
      ASSERT_EQ(kinds(kkt.system), Kinds{ComponentKind::loop}) << n;
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::loop).loops, 1) << n;
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::automatic).direct, 1) << n;
    }
  }
  RandomKkt parallel(230);  // two bodies, three joints between them and one on the world: 2 cycles
  const int a = parallel.add_bodies(2);
  parallel.add_joint(a, a + 1), parallel.add_joint(a, a + 1), parallel.add_joint(a + 1, a, 2);
  parallel.add_joint(a, -1, 2);
  ASSERT_EQ(kinds(parallel.system), Kinds{ComponentKind::graph});
  EXPECT_EQ(expect_matches_direct(parallel.system, DualSolverKind::loop).loops, 1);
}

TEST(MabdDualSolvers, LoopsOnATreeMatchTheDirectSolve) {
  // A random tree closed by 1 to kMaxLoopBreakers extra joints, one of them a self-joint: the spanning
  // tree goes to ABD-ABA, S has up to 24 rows.
  for (int loops = 1; loops <= kMaxLoopBreakers; ++loops) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      RandomKkt kkt(300 + 10 * loops + seed);
      add_tree(kkt, 30, 0.1);
      for (int i = 0; i < loops; ++i) {
        const int b1 = kkt.pick(30), b2 = i == 0 && seed == 2 ? b1 : kkt.pick(30);
        kkt.add_joint(b1, b2);
      }
      const JointGraph graph(kkt.system);
      ASSERT_EQ(graph.components().size(), 1u);
      const JointComponent& component = graph.components()[0];
      ASSERT_EQ(component.cycles, loops);
      ASSERT_EQ(component.cut_joints.size(), static_cast<std::size_t>(loops));
      ASSERT_TRUE(component.spanning_tree_fits);
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::loop).loops, 1) << loops;
      EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::automatic).direct, 1) << loops;
    }
  }
}

TEST(MabdDualSolvers, TooManyLoopsForTheLoopSolver) {
  RandomKkt kkt(320);
  add_tree(kkt, 20, 0.1);
  for (int i = 0; i <= kMaxLoopBreakers; ++i) kkt.add_joint(i, 19 - i);
  EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::automatic).direct, 1);
  try {
    DualSolver().solve(kkt.system, DualSolverKind::loop);
    ADD_FAILURE() << "5 loops solved as loops";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"loop\" needs every group of jointed bodies to be a chain, a tree or at "
                                         "most 4 loops on one, but the group of body 0 has 5 loops"),
              std::string::npos)
        << e.what();
  }
}

/// A four-bar: bodies 0–3 in a ring, body 0 held by a 6-row world joint, each ring joint 4 random rows
/// and 2 rows that telescope around the loop (joint k: w_k on body k, −w_{k+1} on body k+1, residual
/// s_k − s_{k+1}), as a planar four-bar of hinges repeats its out-of-plane rows: Gᵀ has a null vector
/// and r is in D's range.
void add_four_bar(RandomKkt& kkt, unsigned seed) {
  const int first = kkt.add_bodies(4);
  kkt.add_joint(first, -1, 6);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Eigen::Matrix<double, 2, 12>> w(4);
  std::vector<Eigen::Vector2d> s(4);
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < w[k].size(); ++i) w[k].data()[i] = u(rng);
    s[k] = Eigen::Vector2d(u(rng), u(rng)) * 0.1;
  }
  for (int k = 0; k < 4; ++k) {
    kkt.add_joint(first + k, first + (k + 1) % 4, 6);
    KktJoint& joint = kkt.system.joints.back();
    const bool forward = joint.body1 == first + k;  // add_joint may swap the sides
    JointRows& on_k = forward ? joint.G1 : joint.G2;
    JointRows& on_next = forward ? joint.G2 : joint.G1;
    on_k.bottomRows(2) = w[k], on_next.bottomRows(2) = -w[(k + 1) % 4];
    joint.residual.tail(2) = s[k] - s[(k + 1) % 4];
  }
}

TEST(MabdDualSolvers, RedundantLoopIsRegularisedLikeTheDirectSolve) {
  RandomKkt kkt(330);
  add_four_bar(kkt, 330);
  const KktSystem& system = kkt.system;
  ASSERT_EQ(kinds(system), Kinds{ComponentKind::loop});
  const auto [K, rhs] = dense_kkt(system);
  const VecX x = K.completeOrthogonalDecomposition().solve(rhs);
  DualDirectSolver direct;
  const KktSolution reference = direct.solve(system);
  for (DualSolverKind kind : {DualSolverKind::loop, DualSolverKind::gauss_seidel}) {
    DualSolver solver;
    const KktSolution solution = solver.solve(system, kind, kToRoundOff);
    EXPECT_EQ(solver.regularised(), kind == DualSolverKind::loop);  // Gauss–Seidel needs no factor of D
    const VecX dq = stacked(solution.dq);
    EXPECT_LT(relative(dq, x.head(dq.size())), 1e-6) << dual_solver_name(kind);
    EXPECT_LT(relative(dq, stacked(reference.dq)), 1e-6) << dual_solver_name(kind);
    EXPECT_LT(kkt_residual(system, solution), 1e-8) << dual_solver_name(kind);
    if (kind == DualSolverKind::loop && direct.regularised()) {  // the same D + δI: the same λ to O(δ)
      EXPECT_LT(relative(solution.lambda, reference.lambda), 1e-6);
    }
  }
}

/// A w × h net of bodies on a unit grid joined by ball joints at the midpoints between neighbours
/// (3 rows: J(x̄₁) q₁ − J(x̄₂) q₂, affine_body.hpp), its four corners pinned to the world by balls.
void add_net(RandomKkt& kkt, int w, int h) {
  const int first = kkt.add_bodies(w * h);
  const auto position = [](int i, int w) { return Vec3(i % w, i / w, 0.0); };
  const auto ball = [&](int b1, int b2, const Vec3& at) {
    kkt.add_joint(b1, b2, 3);
    KktJoint& joint = kkt.system.joints.back();
    if (joint.body1 >= 0) joint.G1 = point_jacobian(at - position(joint.body1 - first, w));
    if (joint.body2 >= 0) joint.G2 = -point_jacobian(at - position(joint.body2 - first, w));
    joint.residual *= 0.01;
  };
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int b = first + y * w + x;
      if (x + 1 < w) ball(b, b + 1, Vec3(x + 0.5, y, 0.0));
      if (y + 1 < h) ball(b, b + w, Vec3(x, y + 0.5, 0.0));
    }
  }
  for (int corner : {0, w - 1, w * (h - 1), w * h - 1})
    ball(first + corner, -1, position(corner, w) + Vec3(corner % w ? 0.5 : -0.5, corner / w ? 0.5 : -0.5, 0.0));
}

/// ‖r − Dλ‖/‖r‖ of a solution, through the primal: r − Dλ = C + GΔq with Δq = Δq_free − H⁻¹Gᵀλ.
double dual_residual(const KktSystem& system, const VecX& lambda) {
  const std::vector<Vec12> free = system.free_steps();
  const std::vector<Vec12> dq = primal_steps(system, free, lambda);
  double residual = 0.0, scale = 0.0;
  for (const KktJoint& joint : system.joints) {
    CompactVector e = joint.residual, r = joint.residual;
    if (joint.body1 >= 0) e += joint.G1 * dq[joint.body1], r += joint.G1 * free[joint.body1];
    if (joint.body2 >= 0) e += joint.G2 * dq[joint.body2], r += joint.G2 * free[joint.body2];
    residual += e.squaredNorm(), scale += r.squaredNorm();
  }
  return std::sqrt(residual / scale);
}

TEST(MabdDualSolvers, GaussSeidelSolvesANetToItsTolerance) {
  RandomKkt kkt(400);
  add_net(kkt, 8, 6);
  ASSERT_EQ(kinds(kkt.system), Kinds{ComponentKind::graph});
  const KktSolution reference = DualDirectSolver().solve(kkt.system);
  double previous_error = 1.0;
  for (double tolerance : {1e-3, 1e-6, 1e-9, 1e-12}) {
    DualSolver solver;
    const KktSolution solution = solver.solve(kkt.system, DualSolverKind::gauss_seidel, {tolerance, 100000});
    EXPECT_EQ(solver.counts().gauss_seidel, 1);
    const GaussSeidelReport& report = solver.gauss_seidel();
    EXPECT_TRUE(report.converged) << tolerance;
    EXPECT_GT(report.sweeps, 0);
    EXPECT_LE(report.residual, tolerance);
    const double residual = dual_residual(kkt.system, solution.lambda);  // measured independently
    EXPECT_LE(residual, tolerance);
    EXPECT_NEAR(residual, report.residual, 1e-3 * tolerance);
    // Converges to the direct answer as the tolerance shrinks.
    const double error = relative(solution.lambda, reference.lambda);
    EXPECT_LT(error, previous_error) << tolerance;
    previous_error = error;
    std::cout << "net 8×6, Gauss–Seidel to " << tolerance << ": " << report.sweeps
              << " sweeps, relative λ difference from the direct solve " << error << "\n";
  }
  EXPECT_LT(previous_error, 1e-8);
  EXPECT_LT(relative(stacked(primal_steps(kkt.system, kkt.system.free_steps(), reference.lambda)),
                     stacked(reference.dq)), kTolerance);
}

TEST(MabdDualSolvers, GaussSeidelStartsFromTheLastStepsLambda) {
  RandomKkt kkt(410);
  add_net(kkt, 6, 6);
  DualSolver solver;
  const GaussSeidelLimits limits{1e-8, 100000};
  solver.solve(kkt.system, DualSolverKind::gauss_seidel, limits);
  const int cold = solver.gauss_seidel().sweeps;
  EXPECT_GT(cold, 2);
  solver.solve(kkt.system, DualSolverKind::gauss_seidel, limits);  // the same system: already solved
  EXPECT_EQ(solver.gauss_seidel().sweeps, 0);
  kkt.system.joints[5].residual *= 1.01;  // a nearby system: fewer sweeps than from 0
  solver.solve(kkt.system, DualSolverKind::gauss_seidel, limits);
  EXPECT_LT(solver.gauss_seidel().sweeps, cold);
  EXPECT_TRUE(solver.gauss_seidel().converged);

  // The cap: one sweep is not enough, and says so.
  DualSolver capped;
  const KktSolution solution = capped.solve(kkt.system, DualSolverKind::gauss_seidel, {1e-8, 1});
  EXPECT_EQ(capped.gauss_seidel().sweeps, 1);
  EXPECT_FALSE(capped.gauss_seidel().converged);
  EXPECT_GT(capped.gauss_seidel().residual, 1e-8);
  EXPECT_NEAR(dual_residual(kkt.system, solution.lambda), capped.gauss_seidel().residual, 1e-12);
}

TEST(MabdDualSolvers, GaussSeidelOnChainsAndTreesMatchesTheDirectSolve) {
  RandomKkt kkt(420);
  add_chain(kkt, 15, true, false);
  add_tree(kkt, 15, 0.2);
  add_ring(kkt, 7);
  EXPECT_EQ(expect_matches_direct(kkt.system, DualSolverKind::gauss_seidel, 1e-8).gauss_seidel, 3);
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

/// Loop and graph timings for the record, behind kMaxLoopBreakers and the direct solve of graphs:
/// --gtest_also_run_disabled_tests --gtest_filter='*LoopAndGraphTimings'.
TEST(MabdDualSolvers, DISABLED_LoopAndGraphTimings) {
  const auto time = [](auto&& solve) {
    const auto start = std::chrono::steady_clock::now();
    solve();
    return 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (int loops = 1; loops <= kMaxLoopBreakers; loops *= 2) {
   for (int n : {4, 30, 300, 10000}) {
    for (bool ring : {true, false}) {
      RandomKkt kkt(81);
      if (ring) add_chain(kkt, n, true, false);
      else add_tree(kkt, n, 0.0), kkt.add_joint(0, -1);
      for (int i = 0; i < loops; ++i) kkt.add_joint(kkt.pick(n), kkt.pick(n));
      DualSolver solver;
      DualDirectSolver direct;
      KktSolution structured, reference;
      solver.solve(kkt.system, DualSolverKind::direct);  // classification and CHOLMOD's analysis first
      direct.solve(kkt.system);
      const double loop_ms = time([&] { structured = solver.solve(kkt.system, DualSolverKind::loop); });
      const double direct_ms = time([&] { reference = direct.solve(kkt.system); });
      std::cout << n << "-body " << (ring ? "chain" : "tree") << " + " << loops << " loops: loop Schur " << loop_ms
                << " ms, direct " << direct_ms << " ms; relative λ difference "
                << relative(structured.lambda, reference.lambda) << std::endl;
    }
   }
  }
  for (int side : {20, 40}) {
    RandomKkt kkt(82);
    add_net(kkt, side, side);
    DualSolver solver;
    DualDirectSolver direct;
    KktSolution gs, reference;
    direct.solve(kkt.system);
    const double direct_ms = time([&] { reference = direct.solve(kkt.system); });
    const double cold_ms = time([&] { gs = solver.solve(kkt.system, DualSolverKind::gauss_seidel, {1e-6, 100000}); });
    const int cold = solver.gauss_seidel().sweeps;
    kkt.system.joints[3].residual *= 1.01;  // the next step, nearly the same
    const double warm_ms = time([&] { gs = solver.solve(kkt.system, DualSolverKind::gauss_seidel, {1e-6, 100000}); });
    std::cout << side << "×" << side << " ball net (" << kkt.system.joints.size() << " joints): direct " << direct_ms
              << " ms; Gauss–Seidel to 1e-6 " << cold_ms << " ms (" << cold << " sweeps) cold, " << warm_ms << " ms ("
              << solver.gauss_seidel().sweeps << " sweeps) warm" << std::endl;
  }
}

}  // namespace
}  // namespace affix
