// The linear solves of the ipc Newton step with linear joints (joint_step.hpp): the tree solve of the
// joint forest (tree_kkt.hpp), with its conjugate-gradient iteration for couplings across the forest,
// and the dense KKT solve, each against the dense KKT reference written in the test
// (support/joint_systems.hpp) and against the null-space reduction, to relative 1e-10 — on chains hung
// from the world, random trees of ball and hinge joints with a kinematic body, a chain with contact
// couplings between non-neighbouring links and between two chains, independent chains iterated side by
// side (each island to its own tolerance), and fixed joints (12 rows a body).
// The forest's structure (joint_forest.hpp) is checked on its own: roots, ownership of rows, and what
// is not a forest (a loop, a row on three bodies, a body owning more than 12 rows).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "affix/solvers/ipc/joint_forest.hpp"
#include "affix/solvers/ipc/joint_space.hpp"
#include "support/joint_systems.hpp"

namespace affix {
namespace {

using namespace test;

constexpr double kSame = 1e-10;  // relative difference of two solves of one system

/// The step of `joints` from the move δ onto the rows.
VecX step(const JointSpace& joints, const NewtonSystem& s, const VecX& delta) {
  SparseCholesky solver;
  VecX dq;
  EXPECT_TRUE(joints.solve(s.H, s.g, delta, solver, dq));
  return dq;
}

/// Every body pair the rows of `model` join (the joints' couplings in H), plus `extra`.
std::vector<std::pair<int, int>> joint_pairs(const JointModel& model, std::vector<std::pair<int, int>> extra = {}) {
  for (const JointRow& row : model.rows) {
    int a = -1, b = -1;
    for (const auto& [dof, c] : row.terms) (a < 0 || a == dof / 12 ? a : b) = dof / 12;
    if (a >= 0 && b >= 0) extra.emplace_back(a, b);
  }
  return extra;
}

/// Solves the system by tree, dense and reduction and checks all against the reference KKT step.
void expect_all_methods_agree(const std::vector<AffineBody>& bodies, const JointModel& model, const VecX& q,
                              const NewtonSystem& s, const std::vector<int>& held = {}) {
  JointSpace tree(bodies, model, JointSolverKind::tree), dense(bodies, model, JointSolverKind::dense),
      reduction(bodies, model, JointSolverKind::reduction);
  ASSERT_EQ(tree.method(), JointSolverKind::tree) << tree.structure();
  ASSERT_EQ(dense.method(), JointSolverKind::dense);
  ASSERT_EQ(reduction.method(), JointSolverKind::reduction);
  for (JointSpace* j : {&tree, &dense, &reduction}) j->update_targets(q);
  // The tree method restores the rows body by body, the others at the pivots: both moves put q on them.
  const VecX own_delta = tree.restoration(q);
  EXPECT_LT(row_residual(model, q + own_delta), 1e-12) << "the tree's restoration makes every joint exact";
  // One δ for all three, zeroed on held bodies as the Newton loop does for converged ones: every method
  // then solves C Δq = C δ.
  VecX delta = reduction.restoration(q);
  for (int b : held) delta.segment<12>(12 * b).setZero();
  const VecX by_tree = step(tree, s, delta), by_dense = step(dense, s, delta);
  const VecX by_reduction = step(reduction, s, delta);
  if (held.empty()) EXPECT_LT(relative_difference(step(tree, s, own_delta), by_reduction), kSame);
  EXPECT_EQ(tree.fallbacks(), 0) << "the tree solve itself answered";
  EXPECT_LT(relative_difference(by_tree, by_reduction), kSame);
  EXPECT_LT(relative_difference(by_dense, by_reduction), kSame);
  if (held.empty()) {
    EXPECT_LT(relative_difference(by_tree, kkt_step(s, model, bodies, q)), kSame);
    EXPECT_LT(row_residual(model, q + by_tree), 1e-12) << "the step makes every joint exact";
  }
}

/// n links on ball joints, link 0 hung from the world; link i's anchor between it and link i − 1.
JointModel ball_chain(const VecX& q, int n) {
  JointModel model;
  for (int i = 0; i < n; ++i)
    add_ball(model, "j" + std::to_string(i), q, i, i == 0 ? kNoBody : i - 1,
             0.5 * (state_translation(q.segment<12>(12 * i)) +
                    (i == 0 ? Vec3(0, 0, 2) : state_translation(q.segment<12>(12 * (i - 1))))));
  return model;
}

TEST(JointStep, ChainHungFromTheWorldSolvesLikeTheReference) {
  std::mt19937 rng(21);
  const int n = 40;
  const std::vector<AffineBody> bodies = bodies_with(n);
  const VecX q0 = random_poses(rng, n);
  const JointModel model = ball_chain(q0, n);
  const VecX q = q0 + random_vector(rng, 12 * n, 1e-3);  // off the joints: the step restores them
  expect_all_methods_agree(bodies, model, q, sparse_newton_system(rng, bodies, joint_pairs(model)));
  // The Newton loop zeroes δ on held bodies: the same step as the reduction's δ + N y.
  expect_all_methods_agree(bodies, model, q, sparse_newton_system(rng, bodies, joint_pairs(model)), {3, 17});
}

TEST(JointStep, RandomTreesWithAKinematicBodySolveLikeTheReference) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(100 + seed);
    const int n = 25, kinematic = 7;
    const std::vector<AffineBody> bodies = bodies_with(n, {}, {kinematic});
    const VecX q0 = random_poses(rng, n);
    JointModel model;
    std::uniform_int_distribution<int> coin(0, 1);
    const auto anchor = [&] { return random_vector(rng, 3).head<3>().eval(); };
    add_hinge(model, "root", q0, 0, kNoBody, anchor(), anchor());
    for (int i = 1; i < n; ++i) {
      if (i == kinematic) continue;
      std::uniform_int_distribution<int> earlier(0, i - 1);
      int parent = earlier(rng);
      if (parent == kinematic) parent = 0;
      if (coin(rng)) add_hinge(model, "h" + std::to_string(i), q0, i, parent, anchor(), anchor());
      else add_ball(model, "b" + std::to_string(i), q0, parent, i, anchor());  // either side first
    }
    add_ball(model, "driven", q0, kinematic, 11, anchor());  // a unary row set on body 11
    const VecX q = q0 + random_vector(rng, 12 * n, 1e-3);
    // Couplings on every joint (limits, penalties, damping) as H has them.
    expect_all_methods_agree(bodies, model, q, sparse_newton_system(rng, bodies, joint_pairs(model), 10.0));
  }
}

TEST(JointStep, ContactCouplingsAcrossTheTreeAreIteratedToTheReference) {
  std::mt19937 rng(31);
  const int n = 30;  // two chains of 15, each hung from the world
  const std::vector<AffineBody> bodies = bodies_with(n);
  const VecX q0 = random_poses(rng, n);
  JointModel model;
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 15; ++i) {
      const int b = 15 * c + i;
      add_ball(model, "j" + std::to_string(b), q0, b, i == 0 ? kNoBody : b - 1, random_vector(rng, 3).head<3>());
    }
  const std::vector<std::pair<int, int>> contacts = {{2, 9}, {4, 20}, {13, 28}, {0, 15}, {6, 8}};
  const VecX q = q0 + random_vector(rng, 12 * n, 1e-3);
  for (const double stiffness : {1.0, 1e3}) {  // a light and a barrier-like stiff contact
    SCOPED_TRACE("contact stiffness " + std::to_string(stiffness));
    // Rank-1 pair stencils: each contact's coupling block b_i b_jᵀ adds rank 2 to H − H_T.
    NewtonSystem s = sparse_newton_system(rng, bodies, joint_pairs(model, contacts), stiffness, 1);
    expect_all_methods_agree(bodies, model, q, s);
    JointSpace tree(bodies, model, JointSolverKind::tree);
    tree.update_targets(q);
    step(tree, s, tree.restoration(q));
    ASSERT_NE(tree.tree_report(), nullptr);
    EXPECT_GT(tree.tree_report()->iterations, 0) << "the couplings across the tree need the iteration";
    std::printf("contact stiffness %g: %d conjugate-gradient steps\n", stiffness, tree.tree_report()->iterations);
    EXPECT_LE(tree.tree_report()->iterations, 2 * 5 + 1 + 2) << "rank(H − H_T) + 1 steps, and round-off's few";
  }
}

// Islands (chains that no coupling links) iterate side by side, each with its own step lengths and
// stopping test: the iteration count is that of the island whose couplings need the most, not the sum.
TEST(JointStep, IndependentIslandsIterateApartEachToTheReference) {
  std::mt19937 rng(41);
  const int chains = 4, links = 10, n = chains * links;
  const std::vector<AffineBody> bodies = bodies_with(n);
  const VecX q0 = random_poses(rng, n);
  JointModel model;
  for (int c = 0; c < chains; ++c)
    for (int i = 0; i < links; ++i) {
      const int b = links * c + i;
      add_ball(model, "j" + std::to_string(b), q0, b, i == 0 ? kNoBody : b - 1, random_vector(rng, 3).head<3>());
    }
  // Three contacts inside each of chains 0, 1 and 2 (rank 6 each), none on chain 3.
  std::vector<std::pair<int, int>> contacts;
  for (int c = 0; c < 3; ++c)
    for (const auto& [i, j] : {std::pair{0, 5}, std::pair{2, 8}, std::pair{3, 9}})
      contacts.emplace_back(links * c + i, links * c + j);
  const VecX q = q0 + random_vector(rng, 12 * n, 1e-3);
  const NewtonSystem s = sparse_newton_system(rng, bodies, joint_pairs(model, contacts), 1e3, 1);
  expect_all_methods_agree(bodies, model, q, s);
  JointSpace tree(bodies, model, JointSolverKind::tree);
  tree.update_targets(q);
  step(tree, s, tree.restoration(q));
  ASSERT_NE(tree.tree_report(), nullptr);
  EXPECT_GT(tree.tree_report()->iterations, 0);
  // One island's rank(H − H_T) + 1 and round-off's few; the whole scene's rank is 18.
  EXPECT_LE(tree.tree_report()->iterations, 2 * 3 + 1 + 2);
}

TEST(JointStep, FixedJointsOwnTwelveRowsAndStillSolve) {
  std::mt19937 rng(41);
  const int n = 6;
  const std::vector<AffineBody> bodies = bodies_with(n);
  const VecX q0 = random_poses(rng, n);
  JointModel model;
  add_ball(model, "top", q0, 0, kNoBody, Vec3(0, 0, 1));
  for (int i = 1; i < n; ++i) {  // a fixed joint: four point connections, body i's map set by body i − 1's
    model.names.push_back("fixed" + std::to_string(i));
    const Vec3 a = random_vector(rng, 3).head<3>();
    for (const Vec3& w : {a, Vec3(a + Vec3::UnitX()), Vec3(a + Vec3::UnitY()), Vec3(a + Vec3::UnitZ())})
      add_point_connection(model, i, i, rest_point(q0, i, w), i - 1, rest_point(q0, i - 1, w));
  }
  const VecX q = q0 + random_vector(rng, 12 * n, 1e-3);
  expect_all_methods_agree(bodies, model, q, sparse_newton_system(rng, bodies, joint_pairs(model)));
}

TEST(JointStep, AutomaticTakesTheTreeOnlyForForests) {
  std::mt19937 rng(51);
  const std::vector<AffineBody> bodies = bodies_with(4);
  const VecX q = random_poses(rng, 4);
  JointModel chain;
  add_ball(chain, "a", q, 0, kNoBody, Vec3(0, 0, 1));
  add_hinge(chain, "b", q, 1, 0, Vec3(0, 0, 0.5), Vec3(1, 0, 0));
  add_ball(chain, "c", q, 2, 1, Vec3(0, 0, 0));
  EXPECT_EQ(JointSpace(bodies, chain).method(), JointSolverKind::tree);

  JointModel loop = chain;  // body 3 joined to bodies 2 and 0 closes a loop
  add_ball(loop, "d", q, 3, 2, Vec3(0.2, 0, 0));
  add_ball(loop, "e", q, 3, 0, Vec3(0.4, 0, 0));
  const JointSpace looped(bodies, loop);
  EXPECT_EQ(looped.method(), JointSolverKind::reduction);
  EXPECT_EQ(looped.structure(), "the joints close a loop");
  EXPECT_EQ(JointSpace(bodies, loop, JointSolverKind::tree).method(), JointSolverKind::reduction)
      << "a forced tree on a loop is refused by the simulator, solved by reduction here";
  EXPECT_EQ(JointSpace(bodies, chain, JointSolverKind::reduction).method(), JointSolverKind::reduction);
}

TEST(JointForest, RootsOwnershipAndWhatIsNotAForest) {
  const DofLayout layout = DofLayout::uniform(5, 12);
  const auto row = [](std::initializer_list<int> bodies) {
    SparseRow r;
    for (int b : bodies) r.terms.emplace_back(12 * b + 1, 1.0);
    return r;
  };
  // 1 — 0 — 2 with body 2 on the world twice (its unary rows make it the root), body 3 alone, body 4
  // on the world once.
  const std::vector<SparseRow> rows = {row({0, 1}), row({0, 2}), row({2}), row({1, 0}), row({2}), row({4})};
  const JointForest forest(layout, rows);
  ASSERT_TRUE(forest.is_forest()) << forest.why();
  EXPECT_EQ(forest.parent(2), -1);
  EXPECT_EQ(forest.parent(0), 2);
  EXPECT_EQ(forest.parent(1), 0);
  EXPECT_EQ(forest.parent(3), -1);
  EXPECT_EQ(forest.parent(4), -1);
  EXPECT_EQ(forest.rows_of(1), (std::vector<int>{0, 3})) << "both rows of the pair (0, 1), on its child";
  EXPECT_EQ(forest.rows_of(0), (std::vector<int>{1}));
  EXPECT_EQ(forest.rows_of(2), (std::vector<int>{2, 4}));
  EXPECT_EQ(forest.parent_rows(2), 0);
  const std::vector<int>& order = forest.leaves_first();
  ASSERT_EQ(order.size(), 5u);
  const auto at = [&](int b) { return std::find(order.begin(), order.end(), b) - order.begin(); };
  EXPECT_LT(at(1), at(0));
  EXPECT_LT(at(0), at(2));

  EXPECT_EQ(JointForest(layout, {row({0, 1}), row({1, 2}), row({2, 0})}).why(), "the joints close a loop");
  EXPECT_EQ(JointForest(layout, {row({0, 1, 2})}).why(), "a joint row moves three or more bodies");
  EXPECT_EQ(JointForest(layout, std::vector<SparseRow>(13, row({3}))).why(),
            "a body owns more than 12 joint rows (redundant rows)");
}

}  // namespace
}  // namespace affix
