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

namespace affix {
namespace {

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
                       {"slider_line", JointType::slider, 2}};

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

Mat3 random_rotation(std::mt19937& rng) { return rotation_from_rotation_vector(random_vec(rng, 3.0)); }

RigidPose random_pose(std::mt19937& rng) { return {random_vec(rng, 2.0), random_rotation(rng)}; }

ModelBody random_body(std::mt19937& rng) {
  ModelBody b;
  b.center_of_mass = random_vec(rng, 0.5);
  return b;
}

/// A joint between bodies 0 and body2 (−1: world) whose frames are unrelated random frames, so that C
/// is far from 0 and every part of J matters.
ModelJoint random_joint(const Case& c, int body2, std::mt19937& rng) {
  ModelJoint j;
  j.def.type = c.type;
  if (c.plane) j.def.normal = Vec3::UnitZ();
  else if (c.type == JointType::slider) j.def.direction = Vec3::UnitZ();
  j.def.length = 0.7;
  j.body1 = 0;
  j.body2 = body2;
  j.frame1 = {random_vec(rng, 1.0), random_rotation(rng)};
  j.frame2 = {random_vec(rng, 1.0), random_rotation(rng)};
  return j;
}

/// The pose moved along velocity direction k (0–2: v, 3–5: ω) by h.
RigidPose moved(RigidPose pose, int k, double h) {
  if (k < 3) pose.c[k] += h;
  else pose.R = rotation_from_rotation_vector(h * Vec3::Unit(k - 3)) * pose.R;
  return pose;
}

class RigidJacobian : public ::testing::TestWithParam<Case> {};

TEST_P(RigidJacobian, MatchesCentralDifferencesOfC) {
  const Case& c = GetParam();
  std::mt19937 rng(17);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 20; ++trial) {
      const std::vector<ModelBody> bodies{random_body(rng), random_body(rng)};
      const RigidJoint joint = rigid_joint(random_joint(c, body2, rng), bodies);
      ASSERT_EQ(joint.count, c.rows);
      const RigidPose p1 = random_pose(rng), p2 = random_pose(rng);
      const RigidRows rows = rigid_rows(joint, p1, p2);
      ASSERT_EQ(rows.value.size(), c.rows);
      ASSERT_EQ(rows.J2.rows(), body2 < 0 ? 0 : c.rows);
      const int n = body2 < 0 ? 6 : 12;
      MatX J(c.rows, n), fd(c.rows, n);
      J.leftCols(6) = rows.J1;
      if (body2 >= 0) J.rightCols(6) = rows.J2;
      const double h = 1e-6;
      for (int k = 0; k < n; ++k) {
        const bool first = k < 6;
        const auto value = [&](double s) {
          return rigid_rows(joint, first ? moved(p1, k, s) : p1, first ? p2 : moved(p2, k - 6, s)).value;
        };
        fd.col(k) = (value(h) - value(-h)) / (2.0 * h);
      }
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
      ModelJoint j = random_joint(c, body2, rng);
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
