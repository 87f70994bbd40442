// Ball rows through constant brackets (ball_brackets.hpp) and the ball chain's block Thomas on 3×3
// blocks (ball_chain.hpp), against the generic path they replace: the same blocks J(P)H⁻¹J(P′)ᵀ and
// responses H⁻¹J(P)ᵀf from a co-rotated solve of the rows G (or the body's dense factor), on random
// bodies (random rotations, strains, twist stiffness and H₀); and the chain solve against the direct
// sparse Cholesky of the whole dual matrix with the rows formed, on random chains with and without world
// joints at their ends, joints facing random ways, some bodies in contact (a dense H).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <memory>
#include <numeric>
#include <random>

#include "affix/body/affine_body.hpp"
#include "affix/solvers/mabd/ball_brackets.hpp"
#include "affix/solvers/mabd/dual_solver.hpp"
#include "support/mabd_factors.hpp"

namespace affix {
namespace {

constexpr double kStep = 0.01;  // h

class RandomBodies {
 public:
  explicit RandomBodies(unsigned seed) : rng_(seed) {
    factors_ = test::random_corotated_factors([&] { return random<12, 12>(); }, kStep);
  }

  const CorotatedFactor& factor(int i) const { return *factors_[i]; }

  /// A body with a random rotation and strain, its twist stiffness random (or none), or dense.
  KktBody body(const CorotatedFactor& factor, bool twisted, KktBody::Dense* dense = nullptr) {
    std::normal_distribution<double> normal;
    const Quat rotation = Quat(normal(rng_), normal(rng_), normal(rng_), normal(rng_)).normalized();
    const Mat3 A = rotation.toRotationMatrix() * (Mat3::Identity() + 0.01 * random<3, 3>());
    KktBody b{&factor, CoRotation(A, RotationExtraction::polar), random<12, 1>()};
    if (twisted) {
      const Mat3 G = random<3, 3>();
      b.rotation.set_twist(factor, 1e-3 * G * G.transpose());
    }
    if (dense) {
      const Mat12 E = random<12, 12>();
      dense->matrix = b.hessian() + 10.0 * E * E.transpose();
      dense->factor.compute(dense->matrix);
      b.dense = dense;
    }
    return b;
  }

  Vec3 point() { return 0.1 * random<3, 1>(); }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  std::mt19937& rng() { return rng_; }

  template <int R, int C>
  Eigen::Matrix<double, R, C> random() {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::Matrix<double, R, C> M;
    for (int i = 0; i < M.size(); ++i) M.data()[i] = u(rng_);
    return M;
  }

 private:
  std::mt19937 rng_;
  std::vector<std::unique_ptr<CorotatedFactor>> factors_;
};

double relative(const Eigen::MatrixXd& x, const Eigen::MatrixXd& reference) {
  return (x - reference).norm() / reference.norm();
}

TEST(MabdBallBrackets, BlocksAndResponsesEqualTheGenericPath) {
  RandomBodies random(7);
  BallBrackets brackets;
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    const CorotatedFactor& factor = random.factor(trial % 3);
    KktBody::Dense dense;
    const KktBody body = random.body(factor, trial % 2 == 0, trial % 5 == 0 ? &dense : nullptr);
    const int a = brackets.add(factor, random.point()), c = brackets.add(factor, random.point());
    const Vec3 Pa = brackets[a].point, Pc = brackets[c].point;
    // The generic path: H⁻¹Gᵀ by the body's solve of its rows G = J(P) (kkt_system.hpp).
    const Mat3 generic = point_jacobian(Pa) * body.solve_rows(ball_rows(Pc, 1.0));
    const Mat3 block = ball_block(body, brackets[a], brackets[c], bracket_middle(brackets[a], brackets[c]));
    worst = std::max(worst, relative(block, generic));
    EXPECT_LT(relative(block, generic), 1e-12) << "trial " << trial;
    const Vec3 f = random.random<3, 1>();
    const Vec12 response = ball_response(body, brackets[a], f);
    const Vec12 solved = body.solve(point_jacobian(Pa).transpose() * f);
    EXPECT_LT(relative(response, solved), 1e-12) << "trial " << trial;
    EXPECT_LT((world_point(f.replicate<4, 1>(), Pa) - point_jacobian(Pa) * f.replicate<4, 1>()).norm(), 1e-15);
  }
  std::printf("largest relative difference of a bracket block from the generic one: %.1e\n", worst);
}

TEST(MabdBallBrackets, EqualPointsOnOneFactorShareABracket) {
  RandomBodies random(3);
  BallBrackets brackets;
  const Vec3 P = random.point(), other = random.point();
  const int a = brackets.add(random.factor(0), P);
  EXPECT_EQ(brackets.add(random.factor(0), other), 1);
  EXPECT_EQ(brackets.add(random.factor(0), P), a);      // not the last one added: found by the map
  EXPECT_EQ(brackets.add(random.factor(1), P), 2);      // another H₀: another bracket
  EXPECT_EQ(brackets.size(), 3);
}

/// A chain of n random bodies joined by ball joints at random points (two per body, shared by their
/// joints as a generated chain's are), facing random ways, with world joints at neither, one or both
/// ends; rows formed too when `rows`, so the generic solvers can read them.
struct BallChainSystem {
  KktSystem system;
  BallBrackets brackets;
  std::vector<std::shared_ptr<KktBody::Dense>> dense;

  BallChainSystem(RandomBodies& random, int n, bool world_first, bool world_last, bool rows) {
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), random.rng());  // bodies numbered in a random order
    std::vector<Vec3> head(n), tail(n);
    std::vector<int> factor(n);
    system.bodies.resize(n, KktBody{nullptr, CoRotation(Mat3::Identity(), RotationExtraction::polar)});
    for (int i = 0; i < n; ++i) {
      factor[order[i]] = random.pick(3);  // by body index, as the sides below read it
      KktBody::Dense* d = nullptr;
      if (random.chance(0.1)) d = dense.emplace_back(std::make_shared<KktBody::Dense>()).get();
      system.bodies[order[i]] = random.body(random.factor(factor[order[i]]), random.chance(0.7), d);
      head[i] = random.point(), tail[i] = random.point();
    }
    struct Side {
      int body;
      Vec3 P;
    };
    const auto joint = [&](Side s1, Side s2) {
      if (random.chance(0.5)) std::swap(s1, s2);
      KktJoint j;
      j.body1 = s1.body, j.body2 = s2.body;
      j.residual = 0.1 * random.random<3, 1>();
      const auto side = [&](const Side& s, int& bracket, JointRows& G, double sign) {
        if (s.body < 0) return;
        bracket = brackets.add(random.factor(factor[s.body]), s.P);
        if (rows) G = ball_rows(s.P, sign);
      };
      side({s1.body >= 0 ? order[s1.body] : -1, s1.P}, j.bracket1, j.G1, 1.0);
      side({s2.body >= 0 ? order[s2.body] : -1, s2.P}, j.bracket2, j.G2, -1.0);
      if (j.body1 >= 0) j.body1 = order[j.body1];
      if (j.body2 >= 0) j.body2 = order[j.body2];
      if (rows && j.body1 < 0) j.G1 = JointRows::Zero(3, 12);
      if (rows && j.body2 < 0) j.G2 = JointRows::Zero(3, 12);
      system.joints.push_back(j);
    };
    if (world_first) joint({0, head[0]}, {-1, Vec3::Zero()});
    for (int i = 0; i + 1 < n; ++i) joint({i, tail[i]}, {i + 1, head[i + 1]});
    if (world_last) joint({n - 1, tail[n - 1]}, {-1, Vec3::Zero()});
    std::shuffle(system.joints.begin(), system.joints.end(), random.rng());
    system.brackets = &brackets;
  }
};

VecX stacked(const std::vector<Vec12>& dq) {
  VecX x(12 * dq.size());
  for (std::size_t b = 0; b < dq.size(); ++b) x.segment<12>(12 * b) = dq[b];
  return x;
}

TEST(MabdBallBrackets, BallChainMatchesTheDirectSolveOfTheFormedRows) {
  RandomBodies random(11);
  for (int trial = 0; trial < 12; ++trial) {
    const bool first = trial % 2 == 1, last = trial % 4 >= 2;
    const int n = 2 + random.pick(40);
    BallChainSystem chain(random, n, first, last, false);  // no rows: the ball chain needs none
    BallChainSystem formed = chain;
    formed.system.brackets = &formed.brackets;
    for (KktJoint& j : formed.system.joints) {
      j.G1 = j.body1 >= 0 ? ball_rows(formed.brackets[j.bracket1].point, 1.0) : JointRows::Zero(3, 12);
      j.G2 = j.body2 >= 0 ? ball_rows(formed.brackets[j.bracket2].point, -1.0) : JointRows::Zero(3, 12);
    }
    DualSolver solver;
    EXPECT_FALSE(solver.needs_rows(chain.system, DualSolverKind::automatic));
    const KktSolution solution = solver.solve(chain.system, DualSolverKind::automatic);
    EXPECT_EQ(solver.counts().chains, 1);
    const KktSolution reference = DualDirectSolver().solve(formed.system);
    EXPECT_LT((stacked(solution.dq) - stacked(reference.dq)).norm() / stacked(reference.dq).norm(), 1e-10)
        << "trial " << trial << ", " << n << " bodies";
    EXPECT_LT((solution.lambda - reference.lambda).norm() / reference.lambda.norm(), 1e-10) << "trial " << trial;
    EXPECT_LT(kkt_residual(formed.system, solution), 1e-10) << "trial " << trial;
    // The generic block Thomas on the formed rows, without brackets, agrees too.
    formed.system.brackets = nullptr;
    DualSolver generic;
    EXPECT_TRUE(generic.needs_rows(formed.system, DualSolverKind::chain));
    const KktSolution old = generic.solve(formed.system, DualSolverKind::chain);
    EXPECT_LT((solution.lambda - old.lambda).norm() / old.lambda.norm(), 1e-10) << "trial " << trial;
  }
}

TEST(MabdBallBrackets, OnlyBallChainsGoWithoutRows) {
  RandomBodies random(5);
  BallChainSystem chain(random, 6, true, false, true);
  DualSolver solver;
  EXPECT_FALSE(solver.needs_rows(chain.system, DualSolverKind::automatic));
  EXPECT_FALSE(solver.needs_rows(chain.system, DualSolverKind::chain));
  EXPECT_TRUE(solver.needs_rows(chain.system, DualSolverKind::direct));
  EXPECT_TRUE(solver.needs_rows(chain.system, DualSolverKind::tree));  // a chain is a tree: ABD-ABA reads G
  // A joint with a limit row (4 rows) is not a ball in brackets: its chain goes the generic way.
  KktSystem limited = chain.system;
  limited.joints[2].residual = CompactVector::Zero(4);
  limited.joints[2].G1 = JointRows::Zero(4, 12), limited.joints[2].G2 = JointRows::Zero(4, 12);
  EXPECT_TRUE(DualSolver().needs_rows(limited, DualSolverKind::automatic));
  // Without brackets every joint is read through G.
  KktSystem generic = chain.system;
  generic.brackets = nullptr;
  EXPECT_TRUE(DualSolver().needs_rows(generic, DualSolverKind::automatic));
}

TEST(MabdBallBrackets, RedundantBallRowsAreRegularisedLikeTheDirectSolve) {
  // One body held to the world by two ball joints at the same point: D is singular with a consistent
  // right-hand side, and the ball chain retries on D + δI as the other structured solvers do.
  RandomBodies random(9);
  BallBrackets brackets;
  KktSystem system;
  system.brackets = &brackets;
  system.bodies.push_back(random.body(random.factor(0), true));
  const Vec3 P = random.point();
  const Vec3 C = 0.1 * random.random<3, 1>();
  for (int k = 0; k < 2; ++k) {
    KktJoint j;
    j.body1 = 0, j.body2 = -1;
    j.bracket1 = brackets.add(random.factor(0), P);
    j.residual = C;
    system.joints.push_back(j);
  }
  DualSolver solver;
  EXPECT_FALSE(solver.needs_rows(system, DualSolverKind::automatic));
  const KktSolution solution = solver.solve(system, DualSolverKind::automatic);
  EXPECT_TRUE(solver.regularised());
  for (KktJoint& j : system.joints) j.G1 = ball_rows(P, 1.0), j.G2 = JointRows::Zero(3, 12);
  DualDirectSolver direct;
  const KktSolution reference = direct.solve(system);
  EXPECT_TRUE(direct.regularised());
  EXPECT_LT((solution.dq[0] - reference.dq[0]).norm() / reference.dq[0].norm(), 1e-6);
  // The point moves onto its pin: J(P)Δq = −C.
  EXPECT_LT((world_point(solution.dq[0], P) + C).norm(), 1e-8 * C.norm());
}

}  // namespace
}  // namespace affix
