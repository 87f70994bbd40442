// Compact affine joint rows (compact_rows.hpp, He 2026 §4): on random affine states (A not a rotation)
// and random joint frames, ∂C/∂q₁ = G₁ and ∂C/∂q₂ = G₂ + the frame's part against central differences
// of C along q, against a body and against the world; C = G₁q₁ + G₂q₂ − b with the frame held, as a
// linear function of q; at t = 0, C = 0 and the rows have full rank; the row counts of the paper.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <random>

#include "affix/body/affine_body.hpp"
#include "affix/joints/compact_rows.hpp"
#include "affix/math/rotation.hpp"
#include "support/finite_differences.hpp"

namespace affix {
namespace {

struct Case {
  const char* name;
  JointType type;
  int rows;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const Case kCases[] = {{"ball", JointType::ball, 3},          {"hinge", JointType::hinge, 5},
                       {"universal", JointType::universal, 4}, {"prismatic", JointType::prismatic, 5},
                       {"fixed", JointType::fixed, 6},         {"cone_twist", JointType::cone_twist, 3}};

constexpr double kEdge = 0.6;

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

Mat3 random_rotation(std::mt19937& rng) { return rotation_from_rotation_vector(random_vec(rng, 3.0)); }

/// An affine state whose A is a rotation times a random stretch and shear.
Vec12 random_state(std::mt19937& rng) {
  Mat3 S;
  for (int k = 0; k < 3; ++k) S.col(k) = Vec3::Unit(k) + random_vec(rng, 0.2);
  return affine_state(random_vec(rng, 2.0), random_rotation(rng) * S);
}

ModelJoint random_joint(const Case& c, int body2, std::mt19937& rng) {
  ModelJoint j;
  j.def.type = c.type;
  j.body1 = 0;
  j.body2 = body2;
  j.frame1 = {random_vec(rng, 1.0), random_rotation(rng)};
  j.frame2 = {random_vec(rng, 1.0), random_rotation(rng)};
  return j;
}

class CompactRowsTest : public ::testing::TestWithParam<Case> {};

TEST_P(CompactRowsTest, JacobianMatchesCentralDifferencesOfC) {
  const Case& c = GetParam();
  std::mt19937 rng(29);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 20; ++trial) {
      const ModelJoint joint = random_joint(c, body2, rng);
      const Vec12 q1 = random_state(rng), q2 = random_state(rng);
      const CompactRows rows = compact_rows(joint, kEdge, q1, q2);
      ASSERT_EQ(rows.value.size(), c.rows);
      ASSERT_EQ(rows.rows2.rows(), body2 < 0 ? 0 : c.rows);
      const int n = body2 < 0 ? 12 : 24;
      VecX q(n);
      q.head<12>() = q1;
      if (body2 >= 0) q.tail<12>() = q2;
      const auto value = [&](const VecX& x) -> VecX {
        return compact_rows(joint, kEdge, x.head<12>(), body2 < 0 ? q2 : Vec12(x.tail<12>())).value;
      };
      MatX J(c.rows, n);
      J.leftCols(12) = rows.rows1;
      if (body2 >= 0) J.rightCols(12) = rows.jacobian2();
      ASSERT_GT(J.cwiseAbs().maxCoeff(), 1e-3);
      EXPECT_TRUE(test::near_relative(J, test::fd_jacobian(value, q), 1e-7))
          << c.name << " body2 " << body2 << " trial " << trial;

      // With the frame held, C is the linear function G₁q₁ + G₂q₂ − b of the states.
      const Vec12 d1 = random_state(rng), d2 = random_state(rng);
      VecX linear = rows.rows1 * (q1 + d1) - rows.rhs;
      if (body2 >= 0) linear += rows.rows2 * (q2 + d2);
      VecX expected = rows.value + rows.rows1 * d1;
      if (body2 >= 0) expected += rows.rows2 * d2;
      EXPECT_LE((linear - expected).cwiseAbs().maxCoeff(), 1e-12);
    }
  }
}

TEST_P(CompactRowsTest, VanishesWithFullRankAtTheStart) {
  const Case& c = GetParam();
  std::mt19937 rng(31);
  for (int trial = 0; trial < 10; ++trial) {
    // Two bodies in random rigid poses and a joint at a random world frame, carried into both.
    const Vec3 p1 = random_vec(rng, 2.0), p2 = random_vec(rng, 2.0), anchor = random_vec(rng, 1.0);
    const Mat3 R1 = random_rotation(rng), R2 = random_rotation(rng), axes = random_rotation(rng);
    for (int body2 : {1, -1}) {
      ModelJoint j = random_joint(c, body2, rng);
      j.frame1 = {R1.transpose() * (anchor - p1), R1.transpose() * axes};
      j.frame2 = {R2.transpose() * (anchor - p2), R2.transpose() * axes};
      if (body2 < 0) j.frame2 = {anchor, axes};
      const CompactRows rows = compact_rows(j, kEdge, affine_state(p1, R1), affine_state(p2, R2));
      EXPECT_LE(rows.value.cwiseAbs().maxCoeff(), 1e-12) << c.name;
      MatX J(c.rows, body2 < 0 ? 12 : 24);
      J.leftCols(12) = rows.rows1;
      if (body2 >= 0) J.rightCols(12) = rows.jacobian2();
      const Eigen::JacobiSVD<MatX> svd(J);
      EXPECT_GT(svd.singularValues().minCoeff(), 1e-2) << c.name << " body2 " << body2;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, CompactRowsTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(CompactRows, CountsAndCoverage) {
  EXPECT_EQ(compact_row_count(JointType::ball), 3);
  EXPECT_EQ(compact_row_count(JointType::hinge), 5);
  EXPECT_EQ(compact_row_count(JointType::universal), 4);
  EXPECT_EQ(compact_row_count(JointType::prismatic), 5);
  EXPECT_EQ(compact_row_count(JointType::fixed), 6);
  EXPECT_FALSE(has_compact_rows(JointType::distance));
  EXPECT_FALSE(has_compact_rows(JointType::slider));
}

}  // namespace
}  // namespace affix
