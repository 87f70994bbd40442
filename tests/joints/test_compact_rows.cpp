// Compact affine joint rows (compact_rows.hpp, He 2026 §4): on random affine states (A not a rotation)
// and random joint frames, ∂C/∂q₁ = G₁ and ∂C/∂q₂ = G₂ + the frame's part against central differences
// of C along q, against a body and against the world, for every joint type and every limit clamp row;
// C = G₁q₁ + G₂q₂ − b as a linear function of q with G held; at t = 0, C = 0 and the rows have full
// rank; the row counts of the paper. The limited DOFs (joint_dof) read back the angles and slides a
// rigid pose was built from, and a clamp row is zero at its bound with the sign of DOF − bound. The
// skew-symmetrised frame rows (Eq. 35) agree with central differences of C along rigid motions of body 2
// at rigid poses, and not along stretches.
#include <gtest/gtest.h>

#include <Eigen/SVD>
#include <numbers>
#include <random>
#include <vector>

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
  std::vector<LimitClamp> clamps;  ///< limit rows to append (bounds in rad or m)
  bool plane = false;              ///< slider: `normal`
  bool rope = false;               ///< distance: only `max`, no equality row
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const Case kCases[] = {
    {"ball", JointType::ball, 3, {}},
    {"hinge", JointType::hinge, 5, {}},
    {"universal", JointType::universal, 4, {}},
    {"prismatic", JointType::prismatic, 5, {}},
    {"fixed", JointType::fixed, 6, {}},
    {"cone_twist", JointType::cone_twist, 3, {}},
    {"slider_line", JointType::slider, 2, {}},
    {"slider_plane", JointType::slider, 1, {}, true},
    {"distance", JointType::distance, 1, {}},
    {"hinge_limit", JointType::hinge, 6, {{JointDof::hinge_angle, 0.7}}},
    {"prismatic_limit", JointType::prismatic, 6, {{JointDof::slide, -0.2}}},
    {"slider_limit", JointType::slider, 3, {{JointDof::slide, 0.3}}},
    {"rope_limit", JointType::distance, 1, {{JointDof::distance, 0.9}}, false, true},
    {"cone_swing2_limit", JointType::cone_twist, 4, {{JointDof::swing2, -0.4}}},
    {"cone_swing1_limit", JointType::cone_twist, 4, {{JointDof::swing1, 0.5}}},
    {"cone_twist_limit", JointType::cone_twist, 4, {{JointDof::twist, 2.5}}},
    {"cone_all_limits", JointType::cone_twist, 6,
     {{JointDof::twist, -0.3}, {JointDof::swing1, -0.6}, {JointDof::swing2, 1.1}}},
};

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

JointDef definition(const Case& c) {
  JointDef d;
  d.type = c.type;
  if (c.type == JointType::slider) {
    if (c.plane) d.normal = Vec3::UnitZ();
    else d.direction = Vec3::UnitX();
  }
  if (c.type == JointType::distance) {
    if (c.rope) d.max_length = 1.2;
    else d.length = 0.7;
  }
  return d;
}

ModelJoint random_joint(const Case& c, int body2, std::mt19937& rng) {
  ModelJoint j;
  j.def = definition(c);
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
      const CompactRows rows = compact_rows(joint, kEdge, q1, q2, c.clamps);
      ASSERT_EQ(rows.value.size(), c.rows);
      ASSERT_EQ(rows.rows2.rows(), body2 < 0 ? 0 : c.rows);
      const int n = body2 < 0 ? 12 : 24;
      VecX q(n);
      q.head<12>() = q1;
      if (body2 >= 0) q.tail<12>() = q2;
      const auto value = [&](const VecX& x) -> VecX {
        return compact_rows(joint, kEdge, x.head<12>(), body2 < 0 ? q2 : Vec12(x.tail<12>()), c.clamps).value;
      };
      MatX J(c.rows, n);
      J.leftCols(12) = rows.rows1;
      if (body2 >= 0) J.rightCols(12) = rows.jacobian2();
      ASSERT_GT(J.cwiseAbs().rowwise().maxCoeff().minCoeff(), 1e-3) << "a row without gradient";
      EXPECT_TRUE(test::near_relative(J, test::fd_jacobian(value, q), 1e-7))
          << c.name << " body2 " << body2 << " trial " << trial;

      // C = G₁q₁ + G₂q₂ − b, and with G held that is a linear function of the states.
      VecX at = rows.rows1 * q1 - rows.rhs;
      if (body2 >= 0) at += rows.rows2 * q2;
      EXPECT_LE((at - rows.value).cwiseAbs().maxCoeff(), 1e-12);
      const Vec12 d1 = random_state(rng), d2 = random_state(rng);
      VecX linear = rows.rows1 * (q1 + d1) - rows.rhs;
      if (body2 >= 0) linear += rows.rows2 * (q2 + d2);
      VecX expected = rows.value + rows.rows1 * d1;
      if (body2 >= 0) expected += rows.rows2 * d2;
      EXPECT_LE((linear - expected).cwiseAbs().maxCoeff(), 1e-12);
    }
  }
}

TEST_P(CompactRowsTest, RowErrorIsTheLargestEqualityRow) {
  // compact_row_error (the step statistics' joint error) reads a ball's rows without their gradients.
  const Case& c = GetParam();
  std::mt19937 rng(31);
  for (int body2 : {1, -1}) {
    for (int trial = 0; trial < 20; ++trial) {
      const ModelJoint joint = random_joint(c, body2, rng);
      const Vec12 q1 = random_state(rng), q2 = random_state(rng);
      const CompactRows rows = compact_rows(joint, kEdge, q1, q2);
      const double largest = rows.value.size() > 0 ? rows.value.cwiseAbs().maxCoeff() : 0.0;
      EXPECT_DOUBLE_EQ(compact_row_error(joint, kEdge, q1, q2), largest) << c.name << " body2 " << body2;
      if (rows.value.size() > 0) EXPECT_GT(largest, 1e-3);  // random poses: the joints are broken
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
    // A distance joint's anchors are apart, along its frame's x (model.hpp); `length` is then theirs.
    const Vec3 anchor2 = c.type == JointType::distance ? Vec3(anchor + 0.9 * axes.col(0)) : anchor;
    for (int body2 : {1, -1}) {
      ModelJoint j = random_joint(c, body2, rng);
      j.def.anchor1 = anchor;
      j.def.anchor2 = anchor2;
      if (j.def.length) j.def.length = 0.9;
      j.frame1 = {R1.transpose() * (anchor - p1), R1.transpose() * axes};
      j.frame2 = {R2.transpose() * (anchor2 - p2), R2.transpose() * axes};
      if (body2 < 0) j.frame2 = {anchor2, axes};
      // Clamps at the DOF's value at the start (0, or the anchors' distance), so their rows vanish too.
      std::vector<LimitClamp> clamps = c.clamps;
      for (LimitClamp& clamp : clamps) clamp.bound = clamp.dof == JointDof::distance ? 0.9 : 0.0;
      const CompactRows rows = compact_rows(j, kEdge, affine_state(p1, R1), affine_state(p2, R2), clamps);
      EXPECT_LE(rows.value.cwiseAbs().maxCoeff(), 1e-12) << c.name;
      MatX J(c.rows, body2 < 0 ? 12 : 24);
      J.leftCols(12) = rows.rows1;
      if (body2 >= 0) J.rightCols(12) = rows.jacobian2();
      const Eigen::JacobiSVD<MatX> svd(J);
      EXPECT_GT(svd.singularValues().minCoeff(), 1e-2) << c.name << " body2 " << body2;
    }
  }
}

TEST_P(CompactRowsTest, SkewSymmetrisedFrameRowsFollowRigidMotionsOnly) {
  const Case& c = GetParam();
  std::mt19937 rng(37);
  int stretch_differs = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const ModelJoint joint = random_joint(c, 1, rng);
    const Vec12 q1 = random_state(rng), q2 = affine_state(random_vec(rng, 2.0), random_rotation(rng));
    const CompactRows rows = compact_rows(joint, kEdge, q1, q2, c.clamps);
    const CompactBlock projected_frame = skew_symmetrised_frame_rows(rows, q2);
    const Mat3 A = state_matrix(q2);
    const auto rate_along = [&](const Mat3& dA) {  // dC/dt when A₂ moves at dA
      const auto value = [&](double t) {
        return VecX(compact_rows(joint, kEdge, q1, affine_state(state_translation(q2), A + t * dA), c.clamps).value);
      };
      return VecX((value(1e-6) - value(-1e-6)) / 2e-6);
    };
    // Along a rigid motion [ω]× A₂ the projected gradient gives the true rate.
    const Mat3 spin = skew(random_vec(rng, 1.0)) * A;
    const VecX exact = rate_along(spin), projected = (rows.rows2 + projected_frame) * affine_state(Vec3::Zero(), spin);
    EXPECT_TRUE(test::near_relative(projected, exact, 1e-7)) << c.name << " trial " << trial;
    // Along a pure stretch it misses E's part of the rate, wherever the rows depend on E.
    const Mat3 stretch = A * Mat3(Vec3(0.3, -0.2, 0.1).asDiagonal());
    const VecX projected_stretch = (rows.rows2 + projected_frame) * affine_state(Vec3::Zero(), stretch);
    if ((projected_stretch - rate_along(stretch)).cwiseAbs().maxCoeff() > 1e-4) ++stretch_differs;
  }
  const bool depends_on_frame = c.type != JointType::ball && c.type != JointType::distance &&
                                !(c.type == JointType::cone_twist && c.clamps.empty());
  if (depends_on_frame) {
    EXPECT_GT(stretch_differs, 0) << "the projection changed nothing";
  }
}

INSTANTIATE_TEST_SUITE_P(Types, CompactRowsTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

/// Rigid poses built from known joint coordinates: bodies at the identity rest pose (so both joint frames
/// are the world frame {o, F}), body 2 moved by T₂ and body 1 by T₂ then the joint's own motion about o.
struct Built {
  Vec12 q1, q2;
};
Built build(const Vec3& o, const Mat3& F, const Mat3& R2, const Vec3& t2, const Mat3& G, const Vec3& slide) {
  const Mat3 R = F * G * F.transpose();
  const Vec3 t = o + F * slide - R * o;  // x ↦ R x + t: turn about o, then slide in F's coordinates
  return {affine_state(R2 * t + t2, R2 * R), affine_state(t2, R2)};
}

ModelJoint identity_joint(JointType type, const Vec3& o, const Mat3& F, int body2) {
  ModelJoint j;
  j.def.type = type;
  if (type == JointType::slider) j.def.direction = F.col(0);
  j.body1 = 0;
  j.body2 = body2;
  j.frame1 = j.frame2 = {o, F};
  return j;
}

TEST(CompactRowsDofs, ReadTheCoordinatesAPoseWasBuiltFromAndClampRowsChangeSignThere) {
  std::mt19937 rng(43);
  std::uniform_real_distribution<double> angle(-1.2, 1.2);
  const auto rot = [](int axis, double a) { return rotation_from_rotation_vector(a * Vec3::Unit(axis)); };
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 o = random_vec(rng, 1.0), t2 = random_vec(rng, 1.0);
    const Mat3 F = random_rotation(rng), R2 = random_rotation(rng);
    for (int body2 : {1, -1}) {
      const Mat3 R2b = body2 < 0 ? Mat3::Identity() : R2;
      const Vec3 t2b = body2 < 0 ? Vec3::Zero() : t2;
      const auto check = [&](const ModelJoint& j, const Built& b, JointDof dof, double expected) {
        EXPECT_NEAR(joint_dof(j, kEdge, b.q1, b.q2, dof), expected, 1e-12) << static_cast<int>(dof);
        for (double delta : {-0.05, 0.0, 0.05}) {
          const LimitClamp clamp{dof, expected - delta};
          const CompactRows rows = compact_rows(j, kEdge, b.q1, b.q2, std::span<const LimitClamp>(&clamp, 1));
          const double C = rows.value[rows.value.size() - 1];
          if (delta == 0.0) {
            EXPECT_NEAR(C, 0.0, 1e-12);
          } else {
            EXPECT_GT(C * delta, 0.0) << "clamp row sign, dof " << static_cast<int>(dof);
          }
        }
      };
      const double theta = angle(rng);
      check(identity_joint(JointType::hinge, o, F, body2), build(o, F, R2b, t2b, rot(0, theta), Vec3::Zero()),
            JointDof::hinge_angle, theta);
      const double s = angle(rng);
      for (JointType type : {JointType::prismatic, JointType::slider})
        check(identity_joint(type, o, F, body2), build(o, F, R2b, t2b, Mat3::Identity(), s * Vec3::UnitX()),
              JointDof::slide, s);
      // R_z(swing2)·R_y(swing1)·R_x(twist) in the joint frame (README's cone_twist).
      const double twist = 2.5 * angle(rng), swing1 = angle(rng), swing2 = 2.5 * angle(rng);
      const ModelJoint cone = identity_joint(JointType::cone_twist, o, F, body2);
      const Built b = build(o, F, R2b, t2b, rot(2, swing2) * rot(1, swing1) * rot(0, twist), Vec3::Zero());
      check(cone, b, JointDof::twist, twist);
      check(cone, b, JointDof::swing1, swing1);
      check(cone, b, JointDof::swing2, swing2);
      ModelJoint rope = identity_joint(JointType::distance, o, F, body2);
      rope.def.max_length = 2.0;
      const double d = 1.0 + 0.5 * angle(rng);
      check(rope, build(o, F, R2b, t2b, random_rotation(rng), d * Vec3::UnitY()), JointDof::distance, d);
    }
  }
}

TEST(CompactRows, CountsAndCoverage) {
  JointDef d;
  const auto count = [&](JointType type) {
    d.type = type;
    return compact_row_count(d);
  };
  EXPECT_EQ(count(JointType::ball), 3);
  EXPECT_EQ(count(JointType::hinge), 5);
  EXPECT_EQ(count(JointType::universal), 4);
  EXPECT_EQ(count(JointType::prismatic), 5);
  EXPECT_EQ(count(JointType::fixed), 6);
  EXPECT_EQ(count(JointType::cone_twist), 3);
  d.direction = Vec3::UnitX();
  EXPECT_EQ(count(JointType::slider), 2);
  d.direction.reset(), d.normal = Vec3::UnitX();
  EXPECT_EQ(count(JointType::slider), 1);
  EXPECT_EQ(count(JointType::distance), 1);  // the initial distance
  d.max_length = 1.0;
  EXPECT_EQ(count(JointType::distance), 0);  // a rope: its limit alone
  EXPECT_EQ(max_limit_rows(d), 1);
  d.length = 0.5;
  EXPECT_EQ(count(JointType::distance), 1);
  EXPECT_EQ(max_limit_rows(d), 0);
  d.type = JointType::cone_twist;
  d.twist_limits = d.swing2_limits = AngleRange{-1, 1};
  EXPECT_EQ(max_limit_rows(d), 2);
  for (JointType type : {JointType::ball, JointType::hinge, JointType::universal, JointType::prismatic,
                         JointType::fixed, JointType::cone_twist, JointType::slider, JointType::distance})
    EXPECT_TRUE(has_compact_rows(type));
}

}  // namespace
}  // namespace affix
