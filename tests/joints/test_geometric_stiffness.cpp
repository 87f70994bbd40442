// Geometric stiffness of the rigid joint rows (geometric_stiffness.hpp, Andrews 2017 App. A): for every
// joint type, at random poses, random joint frames (so C ≠ 0 and every block matters) and random λ,
// K̃ against central differences of the force J(x)ᵀλ along each configuration direction — c ← c + h e_i,
// R ← exp(h[e_i]ₓ)R — with J from rigid_rows(); the low-rank terms sum to K̃ (App. B); the parts list
// (rigid_parts.hpp) rebuilds rigid_rows()' values, so K̃ is about the same rows.
#include <gtest/gtest.h>

#include <random>

#include "affix/joints/geometric_stiffness.hpp"
#include "affix/joints/rigid_parts.hpp"
#include "affix/math/rotation.hpp"
#include "support/finite_differences.hpp"
#include "support/random_rigid.hpp"

namespace affix {
namespace {

using test::random_pose;
using test::random_vec;

struct Case {
  const char* name;
  JointType type;
  bool plane = false;
};

const Case kCases[] = {{"ball", JointType::ball},           {"hinge", JointType::hinge},
                       {"universal", JointType::universal}, {"fixed", JointType::fixed},
                       {"prismatic", JointType::prismatic}, {"cone_twist", JointType::cone_twist},
                       {"distance", JointType::distance},   {"slider_plane", JointType::slider, true},
                       {"slider_line", JointType::slider},  {"cable", JointType::cable}};

RigidJoint random_rigid_joint(const Case& c, int body2, std::mt19937& rng) {
  const std::vector<ModelBody> bodies{test::random_body(rng), test::random_body(rng)};
  return rigid_joint(test::random_joint(c.type, c.plane, body2, rng), bodies);
}

/// Jᵀλ over [v₁, ω₁, v₂, ω₂] (zeros for the world's half).
Vec12 force(const RigidJoint& joint, const RigidPose& p1, const RigidPose& p2, const RigidVector& lambda) {
  const RigidRows rows = rigid_rows(joint, p1, p2);
  Vec12 f = Vec12::Zero();
  f.head<6>() = rows.J1.transpose() * lambda;
  if (rows.J2.rows() > 0) f.tail<6>() = rows.J2.transpose() * lambda;
  return f;
}

class GeometricStiffness : public ::testing::TestWithParam<Case> {};

TEST_P(GeometricStiffness, MatchesCentralDifferencesOfTheConstraintForce) {
  const Case& c = GetParam();
  std::mt19937 rng(29);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 20; ++trial) {
      const RigidJoint joint = random_rigid_joint(c, body2, rng);
      const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
      const RigidVector lambda = RigidVector::NullaryExpr(joint.count, [&] { return random_vec(rng, 5.0)[0]; });
      const Mat12 K = geometric_stiffness(joint, p1, p2, lambda);
      const int n = body2 < 0 ? 6 : 12;
      MatX fd = MatX::Zero(12, 12);
      fd.leftCols(n) = test::rigid_finite_differences(
          [&](const RigidPose& q1, const RigidPose& q2) { return force(joint, q1, q2, lambda); }, p1, p2, 12, n);
      ASSERT_GT(K.cwiseAbs().maxCoeff(), 1e-2) << c.name;
      EXPECT_TRUE(test::near_relative(K, fd, 1e-6)) << c.name << " body2 " << body2 << " trial " << trial;
    }
  }
}

TEST_P(GeometricStiffness, LowRankTermsSumToK) {
  const Case& c = GetParam();
  std::mt19937 rng(5);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 10; ++trial) {
      const RigidJoint joint = random_rigid_joint(c, body2, rng);
      const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
      const RigidVector lambda = RigidVector::NullaryExpr(joint.count, [&] { return random_vec(rng, 5.0)[0]; });
      std::vector<RankOneTerm> terms;
      geometric_stiffness_terms(joint, p1, p2, lambda, terms);
      Mat12 sum = Mat12::Zero();
      for (const RankOneTerm& t : terms) sum += t.a * t.b.transpose();
      const Mat12 K = geometric_stiffness(joint, p1, p2, lambda);
      EXPECT_TRUE(test::near_relative(sum, K, 1e-12)) << c.name << " body2 " << body2;
      EXPECT_LE(static_cast<int>(terms.size()), 4 + 5 * 3 + 12) << c.name;
    }
  }
}

TEST_P(GeometricStiffness, PartsRebuildTheRowsValues) {
  const Case& c = GetParam();
  std::mt19937 rng(11);
  for (int body2 : {1, -1}) {
    const RigidJoint joint = random_rigid_joint(c, body2, rng);
    const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
    const RigidSide s1 = rigid_side(joint.body1, joint.frame1, p1), s2 = rigid_side(joint.body2, joint.frame2, p2);
    const RigidParts parts = rigid_parts(joint);
    const RigidRows rows = rigid_rows(joint, p1, p2);
    ASSERT_EQ(parts.count, joint.count);
    const Vec3 d = s1.x - s2.x;
    for (int k = 0; k < parts.count; ++k) {
      const RigidPart& p = parts.part[k];
      double value = 0.0;
      switch (p.kind) {
        case RigidPart::Kind::point: value = d[p.axis1]; break;
        case RigidPart::Kind::dot1: value = s1.axes.col(p.axis1).dot(s2.axes.col(p.axis2)); break;
        case RigidPart::Kind::dot2: value = d.dot(s2.axes.col(p.axis2)); break;
        case RigidPart::Kind::length: value = d.norm() - joint.length; break;
      }
      EXPECT_NEAR(value, rows.value[k], 1e-12) << c.name << " row " << k;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, GeometricStiffness, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(GeometricStiffness, BallJointIsAndrewsEq22) {
  // Andrews Eq. 22: diag(0, [λ][s_i], 0, −[λ][s_j]) for the three point rows, s the levers.
  ModelJoint j;
  j.def.type = JointType::ball;
  j.body1 = 0, j.body2 = 1;
  j.frame1.origin = Vec3(0.3, -0.2, 0.5);
  j.frame2.origin = Vec3(-0.1, 0.4, 0.2);
  const RigidJoint joint = rigid_joint(j, std::vector<ModelBody>(2));
  const RigidPose p1{Vec3(1, 2, 3), rotation_from_rotation_vector(Vec3(0.3, 0.1, -0.2))};
  const RigidPose p2{Vec3(0, 1, 0), rotation_from_rotation_vector(Vec3(-0.4, 0.2, 0.5))};
  RigidVector lambda(3);
  lambda << 2.0, -1.0, 3.0;
  const Mat12 K = geometric_stiffness(joint, p1, p2, lambda);
  Mat12 expected = Mat12::Zero();
  expected.block<3, 3>(3, 3) = skew(lambda) * skew(p1.R * j.frame1.origin);
  expected.block<3, 3>(9, 9) = -skew(lambda) * skew(p2.R * j.frame2.origin);
  EXPECT_TRUE(test::near_relative(K, expected, 1e-14));
}

}  // namespace
}  // namespace affix
