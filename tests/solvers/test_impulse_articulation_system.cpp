// The impulse solver's system matrix (articulation_system.hpp) against a dense reference: on a random
// graph of joints over moving, prescribed and world bodies, the assembled A_α equals
// J W Jᵀ + αI with α = ε_T‖J W Jᵀ‖₁ (Tomcin 2014 §3–4), free rows are decoupled with a unit diagonal,
// the LDLᵀ solve matches a dense solve, and refactorising keeps the one symbolic analysis.
#include <gtest/gtest.h>

#include <random>

#include "affix/solvers/impulse/articulation_system.hpp"

namespace affix {
namespace {

struct RandomSystem {
  std::vector<SystemJoint> joints;
  std::vector<JointJacobian> J1, J2;
  std::vector<Mat6> W;
  std::vector<char> free;
  int size = 0;
};

RandomSystem random_system(std::mt19937& rng, int bodies, int joints) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> body(-1, bodies - 1), rows(1, 9);
  RandomSystem s;
  for (int b = 0; b < bodies; ++b) {
    Mat6 W = Mat6::Zero();
    if (b % 4 != 3) {  // every fourth body prescribed: W = 0
      Eigen::Matrix<double, 6, 6> X;
      for (int i = 0; i < 36; ++i) X(i / 6, i % 6) = u(rng);
      W = X * X.transpose() + 0.1 * Mat6::Identity();
    }
    s.W.push_back(W);
  }
  for (int j = 0; j < joints; ++j) {
    SystemJoint joint;
    joint.body1 = std::uniform_int_distribution<int>(0, bodies - 1)(rng);
    do joint.body2 = body(rng);
    while (joint.body2 == joint.body1);
    joint.rows = rows(rng);
    JointJacobian J1(joint.rows, 6), J2(joint.rows, 6);
    for (int i = 0; i < joint.rows * 6; ++i) J1(i / 6, i % 6) = u(rng), J2(i / 6, i % 6) = u(rng);
    if (joint.body2 < 0) J2.setZero();
    s.joints.push_back(joint);
    s.J1.push_back(J1);
    s.J2.push_back(J2);
    s.size += joint.rows;
  }
  s.free.assign(s.size, 0);
  return s;
}

/// J W Jᵀ, dense.
MatX dense_A(const RandomSystem& s, int bodies) {
  MatX J = MatX::Zero(s.size, 6 * bodies);
  MatX W = MatX::Zero(6 * bodies, 6 * bodies);
  for (int b = 0; b < bodies; ++b) W.block<6, 6>(6 * b, 6 * b) = s.W[b];
  int offset = 0;
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const SystemJoint& joint = s.joints[j];
    J.block(offset, 6 * joint.body1, joint.rows, 6) += s.J1[j];
    if (joint.body2 >= 0) J.block(offset, 6 * joint.body2, joint.rows, 6) += s.J2[j];
    offset += joint.rows;
  }
  return J * W * J.transpose();
}

TEST(ImpulseArticulationSystem, MatchesTheDenseRegularisedSystemAndItsSolve) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    const int bodies = 8;
    RandomSystem s = random_system(rng, bodies, 12);
    // The system sees prescribed bodies as −1 (no W), as the simulator gives them.
    std::vector<SystemJoint> blocks = s.joints;
    for (SystemJoint& b : blocks) {
      if (b.body1 % 4 == 3) b.body1 = -1;
      if (b.body2 >= 0 && b.body2 % 4 == 3) b.body2 = -1;
    }
    ArticulationSystem system(blocks, bodies);
    ASSERT_EQ(system.size(), s.size);
    const double eps_t = 1e-3;  // large enough to see in the comparison
    const MatX A = dense_A(s, bodies);
    const double alpha = eps_t * A.cwiseAbs().colwise().sum().maxCoeff();
    for (int pass = 0; pass < 2; ++pass) {  // refactorised: the same pattern, no second analysis
      ASSERT_TRUE(system.factorize(s.J1, s.J2, s.W, s.free, eps_t));
      EXPECT_NEAR(system.alpha(), alpha, 1e-12 * alpha);
      const MatX lower = MatX(system.matrix());
      MatX assembled = lower + lower.transpose();
      assembled.diagonal() = lower.diagonal();
      const MatX expected = A + alpha * MatX::Identity(s.size, s.size);
      EXPECT_LT((assembled - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
      VecX b = VecX::Random(s.size), x;
      system.solve(b, x);
      const VecX reference = expected.ldlt().solve(b);
      EXPECT_LT((x - reference).norm(), 1e-8 * reference.norm());
    }
    EXPECT_EQ(system.symbolic_analyses(), 1);
  }
}

TEST(ImpulseArticulationSystem, FreeRowsAreDecoupledWithAUnitDiagonal) {
  std::mt19937 rng(4);
  RandomSystem s = random_system(rng, 5, 6);
  for (int b = 0; b < 5; ++b) s.W[b] = Mat6::Identity();  // every body moves
  // Free the last row of the first joint: its Jacobian rows are zero, as the simulator leaves them.
  const int row = s.joints[0].rows - 1;
  s.J1[0].row(row).setZero();
  s.J2[0].row(row).setZero();
  s.free[row] = 1;
  ArticulationSystem system(s.joints, 5);
  ASSERT_TRUE(system.factorize(s.J1, s.J2, s.W, s.free, 1e-10));
  const MatX lower = MatX(system.matrix());
  EXPECT_EQ(lower(row, row), 1.0);
  EXPECT_EQ(lower.row(row).cwiseAbs().sum() + lower.col(row).cwiseAbs().sum(), 2.0);
  VecX b = VecX::Random(system.size()), x;
  b[row] = 0.0;
  system.solve(b, x);
  EXPECT_EQ(x[row], 0.0);
}

}  // namespace
}  // namespace affix
