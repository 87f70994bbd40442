// Rigid-body joint rows (rigid_jacobian.hpp): on random poses and random joint frames, J₁ and J₂
// against central differences of C along each velocity direction — c ← c + h e_i for v, R ← exp(h[e_i]ₓ)R
// for ω — for every joint type, against a body and against the world; the row counts of the table;
// at t = 0, C = 0 and the rows have full rank.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <random>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/math/rotation.hpp"
#include "support/finite_differences.hpp"
#include "support/random_rigid.hpp"

namespace affix {
namespace {

using test::random_body;
using test::random_joint;
using test::random_pose;
using test::random_rotation;
using test::random_vec;

struct Case {
  const char* name;
  JointType type;
  int rows;
  bool plane = false;  ///< slider: `normal` (plane) rather than `direction` (line)
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const Case kCases[] = {{"ball", JointType::ball, 3},          {"hinge", JointType::hinge, 5},
                       {"universal", JointType::universal, 4}, {"fixed", JointType::fixed, 6},
                       {"prismatic", JointType::prismatic, 5}, {"cone_twist", JointType::cone_twist, 3},
                       {"distance", JointType::distance, 1},  {"slider_plane", JointType::slider, 1, true},
                       {"slider_line", JointType::slider, 2}, {"cable", JointType::cable, 6}};

class RigidJacobian : public ::testing::TestWithParam<Case> {};

TEST_P(RigidJacobian, MatchesCentralDifferencesOfC) {
  const Case& c = GetParam();
  std::mt19937 rng(17);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 20; ++trial) {
      const std::vector<ModelBody> bodies{random_body(rng), random_body(rng)};
      const RigidJoint joint = rigid_joint(random_joint(c.type, c.plane, body2, rng), bodies);
      ASSERT_EQ(joint.count, c.rows);
      const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
      const RigidRows rows = rigid_rows(joint, p1, p2);
      ASSERT_EQ(rows.value.size(), c.rows);
      ASSERT_EQ(rows.J2.rows(), body2 < 0 ? 0 : c.rows);
      const int n = body2 < 0 ? 6 : 12;
      MatX J(c.rows, n);
      J.leftCols(6) = rows.J1;
      if (body2 >= 0) J.rightCols(6) = rows.J2;
      const MatX fd = test::rigid_finite_differences(
          [&](const RigidPose& q1, const RigidPose& q2) { return rigid_rows(joint, q1, q2).value; }, p1, p2, c.rows, n);
      ASSERT_GT(J.cwiseAbs().maxCoeff(), 1e-3);
      EXPECT_TRUE(test::near_relative(J, fd, 1e-7)) << c.name << " body2 " << body2 << " trial " << trial;
    }
  }
}

TEST_P(RigidJacobian, VanishesWithFullRankAtTheStart) {
  const Case& c = GetParam();
  std::mt19937 rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    // Two bodies in random poses and a joint at a random world frame, carried into both (model.hpp).
    std::vector<ModelBody> bodies{random_body(rng), random_body(rng)};
    for (ModelBody& b : bodies) b.position = random_vec(rng, 2.0), b.rotation = random_rotation(rng);
    const Vec3 anchor = random_vec(rng, 1.0);
    const Mat3 axes = random_rotation(rng);
    for (int body2 : {1, -1}) {
      ModelJoint j = random_joint(c.type, c.plane, body2, rng);
      const auto in = [&](int b, const Vec3& x, const Mat3& a) -> JointFrame {
        if (b < 0) return {x, a};
        const Mat3 Rt = bodies[b].rotation.transpose();
        return {Rt * (x - bodies[b].position), Rt * a};
      };
      j.def.length.reset();  // distance: the initial length
      j.def.anchor1 = anchor;
      j.def.anchor2 = anchor + 0.8 * axes.col(0);
      j.frame1 = in(0, anchor, axes);
      j.frame2 = in(body2, c.type == JointType::distance ? j.def.anchor2 : anchor, axes);
      const RigidRows rows = rigid_rows(rigid_joint(j, bodies), initial_rigid_pose(bodies[0]),
                                        initial_rigid_pose(bodies[1]));
      EXPECT_LE(rows.value.cwiseAbs().maxCoeff(), 1e-12) << c.name;
      MatX J(c.rows, body2 < 0 ? 6 : 12);
      J.leftCols(6) = rows.J1;
      if (body2 >= 0) J.rightCols(6) = rows.J2;
      const Eigen::JacobiSVD<MatX> svd(J);
      EXPECT_GT(svd.singularValues().minCoeff(), 1e-3) << c.name << " body2 " << body2;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, RigidJacobian, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

/// A joint of `type` with every limit its type takes, frames random (so every coordinate is far from 0).
ModelJoint limited_joint(JointType type, int body2, std::mt19937& rng) {
  ModelJoint j = random_joint(type, false, body2, rng);
  j.def.length.reset();
  j.def.angle_limits = AngleRange{-1.0, 1.0};
  j.def.twist_limits = AngleRange{-1.0, 1.0};
  j.def.swing1_limits = AngleRange{-0.5, 0.5};
  j.def.swing2_limits = AngleRange{-0.7, 0.7};
  j.def.limits = std::array<double, 2>{-0.1, 0.2};
  j.def.min_length = 0.3;
  return j;
}

TEST(RigidJacobian, LimitCoordinatesMatchCentralDifferences) {
  std::mt19937 rng(29);
  // cone_twist: twist and the swing cone (swing_cone.hpp; its own tests in test_swing_cone.cpp).
  const std::pair<JointType, int> cases[] = {{JointType::hinge, 1},    {JointType::cone_twist, 2},
                                             {JointType::prismatic, 1}, {JointType::slider, 1},
                                             {JointType::distance, 1}};
  for (const auto& [type, count] : cases) {
    for (int body2 : {1, -1}) {
      for (int trial = 0; trial < 20; ++trial) {
        const std::vector<ModelBody> bodies{random_body(rng), random_body(rng)};
        const RigidJoint joint = rigid_joint(limited_joint(type, body2, rng), bodies);
        ASSERT_EQ(joint.limit_count, count) << to_string(type);
        const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
        const RigidRows rows = rigid_limit_coordinates(joint, p1, p2);
        // The twist angle is singular at swing1 = ±90° (rigid_jacobian.hpp), the cone at θ = 0 and π.
        if (type == JointType::cone_twist &&
            std::abs(rigid_coordinate(joint, RigidCoordinate::swing1, p1, p2).value[0]) > 1.3)
          continue;
        const int n = body2 < 0 ? 6 : 12;
        MatX J(count, n);
        J.leftCols(6) = rows.J1;
        if (body2 >= 0) J.rightCols(6) = rows.J2;
        const MatX fd = test::rigid_finite_differences(
            [&](const RigidPose& q1, const RigidPose& q2) { return rigid_limit_coordinates(joint, q1, q2).value; }, p1,
            p2, count, n);
        ASSERT_GT(J.cwiseAbs().maxCoeff(), 1e-3);
        EXPECT_TRUE(test::near_relative(J, fd, 1e-6)) << to_string(type) << " body2 " << body2 << " trial " << trial;
      }
    }
  }
}

TEST(RigidJacobian, DrivenCoordinatesMatchCentralDifferencesWithoutLimits) {
  // rigid_coordinate: what a motor or servo drives (a hinge's twist, a prismatic joint's slide), on
  // joints that limit nothing, so rigid_limit_coordinates has no row for it.
  std::mt19937 rng(31);
  const std::pair<JointType, RigidCoordinate> cases[] = {{JointType::hinge, RigidCoordinate::twist},
                                                         {JointType::prismatic, RigidCoordinate::slide},
                                                         {JointType::slider, RigidCoordinate::slide}};
  for (const auto& [type, coordinate] : cases) {
    for (int body2 : {1, -1}) {
      for (int trial = 0; trial < 20; ++trial) {
        const std::vector<ModelBody> bodies{random_body(rng), random_body(rng)};
        const RigidJoint joint = rigid_joint(random_joint(type, false, body2, rng), bodies);
        ASSERT_EQ(joint.limit_count, 0);
        const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
        const RigidRows rows = rigid_coordinate(joint, coordinate, p1, p2);
        ASSERT_EQ(rows.value.size(), 1);
        const int n = body2 < 0 ? 6 : 12;
        MatX J(1, n);
        J.leftCols(6) = rows.J1;
        if (body2 >= 0) J.rightCols(6) = rows.J2;
        const MatX fd = test::rigid_finite_differences(
            [&](const RigidPose& q1, const RigidPose& q2) { return rigid_coordinate(joint, coordinate, q1, q2).value; },
            p1, p2, 1, n);
        ASSERT_GT(J.cwiseAbs().maxCoeff(), 1e-3);
        EXPECT_TRUE(test::near_relative(J, fd, 1e-6)) << to_string(type) << " body2 " << body2 << " trial " << trial;
      }
    }
  }
}

TEST(RigidJacobian, LimitAnglesReadTheConeTwistConvention) {
  // Body 1 turned by R_z(s2)·R_y(s1)·R_x(t) in joint-frame coordinates relative to body 2 (the world).
  std::mt19937 rng(5);
  std::vector<ModelBody> bodies{random_body(rng)};
  const Mat3 F = random_rotation(rng);
  ModelJoint j = limited_joint(JointType::cone_twist, -1, rng);
  j.frame1 = {Vec3::Zero(), F};
  j.frame2 = {Vec3::Zero(), F};
  const RigidJoint joint = rigid_joint(j, bodies);
  const double t = 0.3, s1 = -0.4, s2 = 0.6;
  const Mat3 M = (Eigen::AngleAxisd(s2, Vec3::UnitZ()) * Eigen::AngleAxisd(s1, Vec3::UnitY()) *
                  Eigen::AngleAxisd(t, Vec3::UnitX())).toRotationMatrix();
  const RigidPose pose{Vec3::Zero(), F * M * F.transpose()};  // F₂ᵀ R F₁ = M
  const auto angle = [&](RigidCoordinate c) { return rigid_coordinate(joint, c, pose, pose).value[0]; };
  EXPECT_NEAR(angle(RigidCoordinate::twist), t, 1e-12);
  EXPECT_NEAR(angle(RigidCoordinate::swing1), s1, 1e-12);
  EXPECT_NEAR(angle(RigidCoordinate::swing2), s2, 1e-12);
}

TEST(RigidJacobian, DistanceWithOnlyBoundsHasNoRows) {
  JointDef def;
  def.type = JointType::distance;
  def.max_length = 2.0;
  EXPECT_EQ(rigid_row_count(def), 0);
  def.length = 1.0;
  EXPECT_EQ(rigid_row_count(def), 1);
}

}  // namespace
}  // namespace affix
