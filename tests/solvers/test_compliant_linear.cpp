// The compliant solver's linear algebra against direct references (STYLE.md practice 3): the augmented
// mass inverse by Sherman–Morrison updates and by LDLT against the inverse of the assembled
// M − h²·sym K̃ (augmented_mass.hpp); the reduced system's dense and sparse (CHOLMOD) paths against
// S + J W Jᵀ formed densely (reduced_system.hpp); the stability damping of Eq. 10–12 and the
// constraint-space rows of Eq. 14–17 against the spring–damper law they come from (stability_damping.hpp).
#include <gtest/gtest.h>

#include <random>
#include <utility>

#include <Eigen/Eigenvalues>

#include "affix/joints/geometric_stiffness.hpp"
#include "affix/math/rotation.hpp"
#include "affix/solvers/compliant/augmented_mass.hpp"
#include "affix/solvers/compliant/reduced_system.hpp"
#include "affix/solvers/compliant/stability_damping.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

/// A body's 6 × 6 mass block: m I and a random SPD world inertia.
Mat6 random_mass(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.5, 5.0);
  const Mat3 R = rotation_from_rotation_vector(random_vec(rng, 3.0));
  Mat6 M = Mat6::Zero();
  M.topLeftCorner<3, 3>() = u(rng) * Mat3::Identity();
  M.bottomRightCorner<3, 3>() = R * Vec3(u(rng), u(rng), u(rng)).asDiagonal() * R.transpose();
  return M;
}

/// A chain of `n` bodies joined by `type` joints (body k to k + 1, and body 0 to the world), random
/// frames, poses and multipliers: its rows and K̃, placed on the bodies.
struct Chain {
  std::vector<Mat6> M;
  ConstraintJacobian J;
  std::vector<PlacedStiffness> K;
  std::vector<PlacedTerm> terms;
};

Chain random_chain(int n, JointType type, std::mt19937& rng) {
  Chain c;
  std::vector<RigidPose> poses;
  for (int b = 0; b < n; ++b) {
    c.M.push_back(random_mass(rng));
    poses.push_back({random_vec(rng, 2.0), rotation_from_rotation_vector(random_vec(rng, 3.0))});
  }
  c.J.bodies = n;
  for (int k = 0; k < n; ++k) {
    ModelJoint mj;
    mj.def.type = type;
    mj.body1 = k;
    mj.body2 = k + 1 < n ? k + 1 : -1;
    mj.frame1 = {random_vec(rng, 0.5), rotation_from_rotation_vector(random_vec(rng, 3.0))};
    mj.frame2 = {random_vec(rng, 0.5), rotation_from_rotation_vector(random_vec(rng, 3.0))};
    const RigidJoint rj = rigid_joint(mj, std::vector<ModelBody>(n));
    const RigidPose p2 = mj.body2 >= 0 ? poses[mj.body2] : RigidPose{};
    const RigidRows rows = rigid_rows(rj, poses[k], p2);
    c.J.slots.push_back({c.J.rows, rj.count, {k, mj.body2}});
    c.J.blocks.push_back({rows.J1, rows.J2});
    c.J.rows += rj.count;
    RigidVector lambda(rj.count);
    for (int r = 0; r < rj.count; ++r) lambda[r] = random_vec(rng, 3.0)[0];
    c.K.push_back({{k, mj.body2}, geometric_stiffness(rj, poses[k], p2, lambda)});
    std::vector<RankOneTerm> local;
    geometric_stiffness_terms(rj, poses[k], p2, lambda, local);
    for (const RankOneTerm& t : local) c.terms.push_back({{k, mj.body2}, t});
  }
  return c;
}

MatX assembled_augmented_mass(const Chain& c, double h) {
  const int n = 6 * static_cast<int>(c.M.size());
  MatX A = MatX::Zero(n, n);
  for (std::size_t b = 0; b < c.M.size(); ++b) A.block<6, 6>(6 * b, 6 * b) = c.M[b];
  for (const PlacedStiffness& k : c.K)
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t)
        if (k.body[s] >= 0 && k.body[t] >= 0)
          A.block<6, 6>(6 * k.body[s], 6 * k.body[t]) -=
              h * h * 0.5 * (k.K.block<6, 6>(6 * s, 6 * t) + k.K.block<6, 6>(6 * t, 6 * s).transpose());
  return A;
}

MatX dense_jacobian(const ConstraintJacobian& J) {
  MatX out = MatX::Zero(J.rows, 6 * J.bodies);
  for (std::size_t j = 0; j < J.slots.size(); ++j)
    for (int s = 0; s < 2; ++s)
      if (J.slots[j].body[s] >= 0)
        out.block(J.slots[j].offset, 6 * J.slots[j].body[s], J.slots[j].count, 6) = J.blocks[j][s];
  return out;
}

class AugmentedMass : public ::testing::TestWithParam<JointType> {};

TEST_P(AugmentedMass, LowRankAndFullRankInversesAreTheInverseOfMMinusHSquaredSymK) {
  std::mt19937 rng(7);
  const double h = 0.05;
  const Chain c = random_chain(6, GetParam(), rng);
  const MatX reference = assembled_augmented_mass(c, h).inverse();
  std::vector<Mat6> Minv;
  for (const Mat6& m : c.M) Minv.push_back(m.inverse());
  MatX low;
  augmented_inverse_low_rank(Minv, c.terms, h, low);
  const MatX full = augmented_inverse_full_rank(c.M, c.K, h);
  ASSERT_GT((reference - MatX(assembled_augmented_mass(c, 0.0).inverse())).cwiseAbs().maxCoeff(), 1e-4)
      << "K̃ changed nothing: the test would not see a wrong K̃";
  EXPECT_TRUE(test::near_relative(low, reference, 1e-9));
  EXPECT_TRUE(test::near_relative(full, reference, 1e-9));
}

TEST(AugmentedMass, LowRankInverseIsTheSameWhateverTheJointOrderAndOnALoop) {
  // The updates are applied in merge order (smallest groups first, augmented_mass.cpp), not the terms'
  // order: a longer chain, its joints given in reverse and interleaved, and one more joint closing a loop
  // (body 0 to the last), against the directly inverted M − h² sym K̃.
  std::mt19937 rng(11);
  const double h = 0.05;
  Chain c = random_chain(16, JointType::hinge, rng);
  const Chain loop = random_chain(2, JointType::hinge, rng);  // its first joint's terms, moved to bodies 0 and 15
  for (const PlacedTerm& t : loop.terms)
    if (t.body == std::array<int, 2>{0, 1}) c.terms.push_back({{0, 15}, t.term});
  c.K.push_back({{0, 15}, loop.K[0].K});
  std::vector<PlacedTerm> shuffled;
  for (int pass = 0; pass < 2; ++pass)  // odd joints from the last, then even ones
    for (auto t = c.terms.rbegin(); t != c.terms.rend(); ++t)
      if ((t->body[0] % 2 == 1) == (pass == 0)) shuffled.push_back(*t);
  std::vector<Mat6> Minv;
  for (const Mat6& m : c.M) Minv.push_back(m.inverse());
  MatX low;
  augmented_inverse_low_rank(Minv, shuffled, h, low);
  EXPECT_TRUE(test::near_relative(low, assembled_augmented_mass(c, h).inverse(), 1e-9));
}

INSTANTIATE_TEST_SUITE_P(Types, AugmentedMass,
                         ::testing::Values(JointType::ball, JointType::hinge, JointType::universal, JointType::fixed,
                                           JointType::prismatic),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(ReducedSystem, DenseAndSparsePathsSolveTheDirectlyFormedSystem) {
  std::mt19937 rng(13);
  const Chain c = random_chain(8, JointType::hinge, rng);
  std::vector<Mat6> W;
  for (const Mat6& m : c.M) W.push_back(m.inverse());
  VecX S(c.J.rows), b(c.J.rows);
  for (int r = 0; r < c.J.rows; ++r) S[r] = 1e-3 * (1 + r % 3), b[r] = random_vec(rng, 1.0)[0];
  MatX Wd = MatX::Zero(6 * c.J.bodies, 6 * c.J.bodies);
  for (int k = 0; k < c.J.bodies; ++k) Wd.block<6, 6>(6 * k, 6 * k) = W[k];
  const MatX Jd = dense_jacobian(c.J);
  const MatX A = MatX(S.asDiagonal()) + Jd * Wd * Jd.transpose();
  const VecX reference = A.lu().solve(b);
  for (int dense_rows : {1000, 0}) {  // all dense, then all sparse
    ReducedSystem system;
    system.set_structure(c.J, dense_rows);
    EXPECT_EQ(system.sparse(), dense_rows == 0);
    ASSERT_TRUE(system.factorize(c.J, W, S));
    EXPECT_TRUE(test::near_relative(system.solve(b), reference, 1e-9)) << "dense_rows " << dense_rows;
    ASSERT_TRUE(system.factorize(c.J, W, S));  // the second time on the kept analysis
    EXPECT_TRUE(test::near_relative(system.solve(b), reference, 1e-9));
    if (system.sparse()) {
      EXPECT_EQ(system.symbolic_analyses(), 1);
    }
  }
  ReducedSystem system;
  system.set_structure(c.J, 1000);
  ASSERT_TRUE(system.factorize_dense(c.J, Wd, S));
  EXPECT_TRUE(test::near_relative(system.solve(b), reference, 1e-9));
}

TEST(StabilityDamping, ZeroWithinTheThresholdAndEq11Beyond) {
  const double h = 0.01, m = 2.0, alpha = 0.5;
  const double k_threshold = 4.0 * alpha * m / (h * h);  // Eq. 10 at equality
  EXPECT_EQ(stabilizing_damping(m, 0.5 * k_threshold, h, alpha), 0.0);
  EXPECT_EQ(stabilizing_damping(m, k_threshold, h, alpha), 0.0);
  EXPECT_NEAR(stabilizing_damping(m, k_threshold * (1 + 1e-9), h, alpha), 0.0, 1e-3);  // continuous
  const double k = 3.0 * k_threshold;
  EXPECT_DOUBLE_EQ(stabilizing_damping(m, k, h, alpha), (h * h * k - 4.0 * alpha * m) / (2.0 * h));
}

TEST(StabilityDamping, DiagonalStiffnessIsTheColumnNormOfTheSummedK) {
  std::mt19937 rng(3);
  const Chain c = random_chain(4, JointType::hinge, rng);
  MatX K = MatX::Zero(24, 24);
  for (const PlacedStiffness& k : c.K)
    for (int s = 0; s < 2; ++s)
      for (int t = 0; t < 2; ++t)
        if (k.body[s] >= 0 && k.body[t] >= 0) K.block<6, 6>(6 * k.body[s], 6 * k.body[t]) += k.K.block<6, 6>(6 * s, 6 * t);
  const std::vector<Vec6> Kd = diagonal_stiffness(c.K, 4);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(Kd[b][i], K.col(6 * b + i).norm(), 1e-12 * K.norm());
  EXPECT_GT(Kd[1].tail<3>().norm(), 0.0);
}

TEST(StabilityDamping, BodyStiffnessSquaredIsTheGramMatrixOfTheBodysColumns) {
  // S² = K̃_bᵀK̃_b on each 3 × 3 block: its diagonal is Eq. 12's squared column norms, and S is symmetric
  // positive semi-definite (the matrix |K̃| whose norms Eq. 12 reads along the world axes only).
  std::mt19937 rng(5);
  for (const JointType type : {JointType::ball, JointType::hinge, JointType::universal}) {
    const Chain c = random_chain(4, type, rng);
    MatX K = MatX::Zero(24, 24);
    for (const PlacedStiffness& k : c.K)
      for (int s = 0; s < 2; ++s)
        for (int t = 0; t < 2; ++t)
          if (k.body[s] >= 0 && k.body[t] >= 0) K.block<6, 6>(6 * k.body[s], 6 * k.body[t]) += k.K.block<6, 6>(6 * s, 6 * t);
    const std::vector<BodyStiffness> S = body_stiffness(c.K, 4);
    const std::vector<Vec6> Kd = diagonal_stiffness(c.K, 4);
    for (int b = 0; b < 4; ++b) {
      const MatX G = K.middleCols(6 * b, 6).transpose() * K.middleCols(6 * b, 6);
      for (const auto& [block, offset] : {std::pair{S[b].linear, 0}, std::pair{S[b].angular, 3}}) {
        const Mat3 Gb = G.block(offset, offset, 3, 3);
        EXPECT_TRUE(test::near_relative(MatX(block * block), MatX(Gb), 1e-9));
        EXPECT_TRUE(test::near_relative(MatX(block), MatX(block.transpose()), 1e-12));
        EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat3>(block).eigenvalues().minCoeff(), -1e-9 * block.norm());
        for (int i = 0; i < 3; ++i) EXPECT_NEAR(std::sqrt(Gb(i, i)), Kd[b][offset + i], 1e-9 * Kd[b].norm());
      }
      EXPECT_GT(S[b].angular.norm(), 0.0);
    }
  }
}

TEST(StabilityDamping, MatrixFormIsEq11InEachModeOfTheBodysOscillator) {
  const double h = 0.05, alpha = 1.0;
  std::mt19937 rng(7);
  // Diagonal m and k: Eq. 11 per DOF, as the scalar form gives it.
  const Vec3 m(2e-3, 0.08, 0.08), k(0.0, 40.0, 300.0);
  const Mat3 B = stabilizing_damping(Mat3(m.asDiagonal()), Mat3(k.asDiagonal()), h, alpha);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(B(i, i), stabilizing_damping(m[i], k[i], h, alpha), 1e-12);
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(B(i, j), i == j ? B(i, i) : 0.0, 1e-12);
  }
  EXPECT_GT(B(2, 2), 0.0);
  EXPECT_EQ(stabilizing_damping(Mat3(m.asDiagonal()), Mat3::Zero(), h, alpha), Mat3::Zero());
  for (int trial = 0; trial < 20; ++trial) {
    const Mat6 M = random_mass(rng);
    const Mat3 I = M.bottomRightCorner<3, 3>();
    const Mat3 Q = rotation_from_rotation_vector(random_vec(rng, 3.0));
    // A stiffness with a null direction n (a spin no joint force turns) and modes past the threshold.
    const Vec3 n = Q.col(0);
    const Mat3 S = Q * Vec3(0.0, 4e3 * (trial + 1), 1e3).asDiagonal() * Q.transpose();
    const Mat3 Bm = stabilizing_damping(I, S, h, alpha);
    EXPECT_TRUE(test::near_relative(MatX(Bm), MatX(Bm.transpose()), 1e-12));
    EXPECT_LT((Bm * n).norm(), 1e-9 * Bm.norm());  // no damping along k's null space
    // Independent: the generalised modes S q = ω² I q; B q = I q b with b of Eq. 11 in mass-normalised form.
    const Eigen::GeneralizedSelfAdjointEigenSolver<Mat3> modes(S, I);
    for (int i = 0; i < 3; ++i) {
      const Vec3 q = modes.eigenvectors().col(i);  // qᵀ I q = 1
      const double b = stabilizing_damping(1.0, modes.eigenvalues()[i], h, alpha);
      EXPECT_TRUE(test::near_relative(MatX(Bm * q), MatX(b * (I * q)), 1e-8)) << "mode " << i;
    }
    // The scene turned: B turns with it.
    const Mat3 R = rotation_from_rotation_vector(random_vec(rng, 3.0));
    EXPECT_TRUE(test::near_relative(MatX(stabilizing_damping(R * I * R.transpose(), R * S * R.transpose(), h, alpha)),
                                    MatX(R * Bm * R.transpose()), 1e-9));
  }
}

TEST(StabilityDamping, PinnedInertiaIsTheParallelAxisTermAboutTheAnchor) {
  // A ball or hinge joint to the world at r from the centre: turning by δθ moves the centre by −δθ × r
  // (about the anchor), m|δθ × r|² more kinetic energy: m[r]×ᵀ[r]×. A hinge's dot-1 rows move no centre.
  std::mt19937 rng(11);
  for (const JointType type : {JointType::ball, JointType::hinge, JointType::universal}) {
    ModelJoint mj;
    mj.def.type = type;
    mj.body1 = 0;
    mj.body2 = -1;
    mj.frame1 = {random_vec(rng, 0.5), rotation_from_rotation_vector(random_vec(rng, 3.0))};
    mj.frame2 = {random_vec(rng, 0.5), rotation_from_rotation_vector(random_vec(rng, 3.0))};
    const RigidJoint rj = rigid_joint(mj, std::vector<ModelBody>(1));
    const RigidPose pose{random_vec(rng, 2.0), rotation_from_rotation_vector(random_vec(rng, 3.0))};
    const RigidRows rows = rigid_rows(rj, pose, RigidPose{});
    const Vec3 r = pose.R * mj.frame1.origin;  // the anchor from the centre, world axes
    const Mat3 cross = skew(r);
    const double m = 2.5;
    EXPECT_TRUE(test::near_relative(MatX(pinned_inertia(m, rows.J1)), MatX(m * cross.transpose() * cross), 1e-12));
  }
}

TEST(StabilityDamping, ConstraintSpaceRowIsTheSpringDamperLawOfEq14) {
  // One row C = x on a free body of mass m (J = e_x on its velocity): the reduced system with
  // S = Σ/h and the right-hand side −Γφ/h gives λ = −(φ + h v₊)/C − b′ v₊ (Eq. 14, φ₊ = φ + h φ̇₊).
  const double m = 3.0, h = 0.02, C = 1e-3, b_prime = 40.0, phi = 0.05, v0 = -0.7;
  ConstraintJacobian J;
  J.bodies = 1;
  J.rows = 1;
  J.slots.push_back({0, 1, {0, -1}});
  RigidBlock row(1, 6);
  row << 1, 0, 0, 0, 0, 0;
  J.blocks.push_back({row, RigidBlock(0, 6)});
  const Mat6 W = (Vec6() << 1 / m, 1 / m, 1 / m, 1, 1, 1).finished().asDiagonal();
  const double Sigma = C / (h + C * b_prime), Gamma = h / (h + C * b_prime);
  VecX S(1), rhs(1);
  S << Sigma / h;
  rhs << -Gamma * phi / h - v0;  // −Γφ/h − J M⁻¹ p
  ReducedSystem system;
  system.set_structure(J, 10);
  ASSERT_TRUE(system.factorize(J, {W}, S));
  const double mu = system.solve(rhs)[0], lambda = mu / h;
  const double v1 = v0 + mu / m;
  EXPECT_NEAR(lambda, -(phi + h * v1) / C - b_prime * v1, 1e-9 * std::abs(lambda));
  EXPECT_GT(std::abs(lambda), 1.0);
}

/// Slots for a chain world – body 0 – body 1 – … – body n−1 of one-row joints with compliance C each.
ConstraintJacobian one_row_chain(int n, std::vector<double>& compliance, double C) {
  ConstraintJacobian J;
  J.bodies = n;
  for (int j = 0; j < n; ++j) {
    J.slots.push_back({J.rows++, 1, {j, j - 1}});
    compliance.push_back(C);
  }
  return J;
}

TEST(StabilityDamping, AnchoredJointIsLeftUndampedOnlyWhenItsBodyHasASoftRowToAMovingBody) {
  std::vector<double> soft, rigid;
  const ConstraintJacobian chain = one_row_chain(3, soft, 0.1);  // a cable's bending: soft
  EXPECT_EQ(stability_damped_joints(chain, 3, soft, false), (std::vector<char>{0, 1, 1}));
  EXPECT_EQ(stability_damped_joints(chain, 3, soft, true), (std::vector<char>{1, 1, 1}));
  // Rigid rows to the neighbour cannot damp (Σ = C/(h + Cb′) ≈ 0): the anchored joint keeps b′.
  const ConstraintJacobian stiff = one_row_chain(3, rigid, 1e-12);
  EXPECT_EQ(stability_damped_joints(stiff, 3, rigid, false), (std::vector<char>{1, 1, 1}));
  // A body held only by the world (and the anchored side written as body 1) keeps it too.
  ConstraintJacobian lone = chain;
  lone.slots[1].body = {-1, 1};
  lone.slots[2].body = {2, -1};
  EXPECT_EQ(stability_damped_joints(lone, 3, soft, false), (std::vector<char>{1, 1, 1}));
}

TEST(StabilityDamping, ConstraintSpaceDampingPutsEachRowOnTheThresholdOfItsOwnOscillator) {
  // Two bodies, one angular row between them, one between body 0 and the world: m′ = (J W Jᵀ)⁻¹ and
  // k′ = (J K_d⁻¹ Jᵀ)⁻¹ in series (§4.3), b′ of Eq. 11 beside the row's own damping, S = Σ/h and Γ.
  std::vector<double> compliance;
  ConstraintJacobian J = one_row_chain(2, compliance, 0.1);
  RigidBlock row(1, 6);
  row << 0, 0, 0, 0, 1, 0;
  J.blocks = {{row, RigidBlock(0, 6)}, {row, -row}};
  const std::vector<double> damping{0.0, 0.3};
  std::vector<Mat6> W(2, Mat6::Identity());
  W[0](4, 4) = 1.0 / 2e-3;
  W[1](4, 4) = 1.0 / 6e-3;
  std::vector<Vec6> Kd(2, Vec6::Zero());
  Kd[0][4] = 400.0;
  Kd[1][4] = 1200.0;
  const double h = 0.01, alpha = 1.0;
  VecX S = VecX::Zero(2), Gamma = VecX::Ones(2);
  constraint_space_damping(J, {1, 1}, W, Kd, compliance, damping, h, alpha, S, Gamma);
  const double b[2] = {stabilizing_damping(2e-3, 400.0, h, alpha),
                       stabilizing_damping(1.0 / (1 / 2e-3 + 1 / 6e-3), 1.0 / (1 / 400.0 + 1 / 1200.0), h, alpha) + 0.3};
  for (int r = 0; r < 2; ++r) {
    EXPECT_GT(b[r], 0.3);
    EXPECT_NEAR(S[r], 0.1 / (h * (h + 0.1 * b[r])), 1e-12 * S[r]);
    EXPECT_NEAR(Gamma[r], h / (h + 0.1 * b[r]), 1e-14);
  }
  // A joint left out keeps what it had.
  S.setZero();
  Gamma.setOnes();
  constraint_space_damping(J, {0, 1}, W, Kd, compliance, damping, h, alpha, S, Gamma);
  EXPECT_EQ(S[0], 0.0);
  EXPECT_EQ(Gamma[0], 1.0);
}

}  // namespace
}  // namespace affix
