// The three joint forms vanish on the same motions: for each joint type, against a body and against
// the world, on poses built from a random rigid motion of body 2 and a random motion the joint allows
// (a rotation about the hinge axis, a slide along the prismatic axis, …), the rigid rows' C
// (rigid_jacobian.hpp), He 2026's compact rows (compact_rows.hpp) and Chen 2022's affine forms
// (joint_model.hpp: linear rows, penalties) are all zero; after a further random motion the joint
// forbids, none is. At the allowed poses the rigid Jacobian and the compact rows annihilate every
// allowed relative twist on top of any common rigid motion, with full rank m = 6 − (allowed DOFs).
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <Eigen/SVD>
#include <random>

#include "affix/body/affine_body.hpp"
#include "affix/joints/compact_rows.hpp"
#include "affix/joints/joint_model.hpp"
#include "affix/joints/rigid_jacobian.hpp"
#include "affix/math/rotation.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene.hpp"

namespace affix {
namespace {

struct Case {
  const char* name;
  JointType type;
  bool world;          ///< body 2 is the world
  bool plane = false;  ///< slider: `normal` rather than `direction`
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

/// A rigid map x ↦ R x + t.
struct Motion {
  Mat3 R = Mat3::Identity();
  Vec3 t = Vec3::Zero();
  Vec3 operator()(const Vec3& x) const { return R * x + t; }
  Motion operator*(const Motion& m) const { return {R * m.R, R * m.t + t}; }
};

/// The motion that is G (a rotation) and then the translation `local` in the frame F about its origin o.
Motion about(const Vec3& o, const Mat3& F, const Mat3& G, const Vec3& local = Vec3::Zero()) {
  const Mat3 R = F * G * F.transpose();
  return {R, o + F * local - R * o};
}

Mat3 rot(int axis, double angle) { return rotation_from_rotation_vector(angle * Vec3::Unit(axis)); }

BodyDef box(const std::string& name, const Vec3& size, const Vec3& position, const Quat& rotation) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{size, 1};
  b.position = position;
  b.rotation = rotation;
  return b;
}

class JointMotions : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    const Case& c = GetParam();
    Scene scene;  // two boxes apart, no ground
    scene.name = "joint_motions";
    const Quat ra(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    const Quat rb(Eigen::AngleAxisd(-0.7, Vec3(-2, 1, 1).normalized()));
    scene.bodies = {box("a", Vec3(0.4, 0.3, 0.5), Vec3::Zero(), ra),
                    box("b", Vec3(0.3, 0.5, 0.4), Vec3(1.0, 0.3, -0.2), rb)};
    JointDef j;
    j.name = "j";
    j.type = c.type;
    j.body1 = "a";
    j.body1_index = 0;
    j.body2 = c.world ? "world" : "b";
    j.body2_index = c.world ? -1 : 1;
    j.anchor = j.point = Vec3(0.5, 0.15, -0.1);
    j.axis = Vec3(1.0, 0.5, 0.2).normalized();
    const Vec3 normal = j.axis.cross(Vec3::UnitZ()).normalized();
    j.axes = {j.axis, normal};
    j.frame.col(0) = j.axis, j.frame.col(1) = normal, j.frame.col(2) = j.axis.cross(normal);
    j.anchor1 = Vec3(0.15, 0.1, 0.0);
    j.anchor2 = Vec3(0.85, 0.2, -0.1);
    if (c.type == JointType::slider) (c.plane ? j.normal : j.direction) = j.axis;
    scene.joints = {j};
    model_ = compile(scene);
    bodies_ = affine_bodies(model_);
    layout_ = affine_layout(bodies_);
    affine_ = build_joint_model(model_, bodies_, layout_, 1e-3);
    joint_ = model_.joints[0];
    std::vector<ModelBody> shifted = model_.bodies;  // the rigid rows with a centre of mass off the origin
    shifted[0].center_of_mass = Vec3(0.05, -0.03, 0.02), shifted[1].center_of_mass = Vec3(-0.04, 0.02, 0.06);
    com_ = {shifted[0].center_of_mass, shifted[1].center_of_mass};
    rigid_ = rigid_joint(joint_, shifted);
    edge_ = model_.bodies[0].bounding_radius;
    const Mat3 R1 = model_.bodies[0].rotation;
    o_ = R1 * joint_.frame1.origin + model_.bodies[0].position;  // the joint frame at t = 0, in the world
    F_ = R1 * joint_.frame1.axes;
  }

  /// A random motion the joint allows, in the world at t = 0.
  Motion allowed(std::mt19937& rng) const {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const Mat3 G = rotation_from_rotation_vector(Vec3(u(rng), u(rng), u(rng)) * 2.0);
    switch (joint_.def.type) {
      case JointType::ball:
      case JointType::cone_twist: return about(o_, F_, G);
      case JointType::hinge: return about(o_, F_, rot(0, 3.0 * u(rng)));
      case JointType::fixed: return {};
      case JointType::prismatic: return about(o_, F_, Mat3::Identity(), Vec3(0.5 * u(rng), 0, 0));
      case JointType::universal: return about(o_, F_, rot(1, 1.2 * u(rng)) * rot(0, 1.2 * u(rng)));
      case JointType::slider:
        if (joint_.def.normal) return about(o_, F_, G, Vec3(0, 0.5 * u(rng), 0.5 * u(rng)));
        return about(o_, F_, G, Vec3(0.5 * u(rng), 0, 0));
      case JointType::distance: {  // about anchor 1, then anchor 2
        const Mat3 G2 = rotation_from_rotation_vector(Vec3(u(rng), u(rng), u(rng)));
        return about(joint_.def.anchor2, Mat3::Identity(), G2) * about(joint_.def.anchor1, Mat3::Identity(), G);
      }
    }
    return {};
  }

  /// A random motion the joint forbids, after `m`: a random twist of magnitude 0.05–0.3 about body 1's
  /// joint point in the span the joint constrains (local (translation, rotation) directions).
  Motion forbidden(const Motion& m, std::mt19937& rng) const {
    std::uniform_real_distribution<double> u(-1.0, 1.0), size(0.05, 0.3);
    if (joint_.def.type == JointType::distance) {
      const Vec3 d = (m(joint_.def.anchor1) - joint_.def.anchor2).normalized();
      return Motion{Mat3::Identity(), size(rng) * (u(rng) < 0 ? -d : d)} * m;
    }
    std::vector<int> span;  // 0–2: translations, 3–5: rotations, in F
    switch (joint_.def.type) {
      case JointType::ball:
      case JointType::cone_twist: span = {0, 1, 2}; break;
      case JointType::hinge: span = {0, 1, 2, 4, 5}; break;
      case JointType::universal: span = {0, 1, 2, 5}; break;
      case JointType::fixed: span = {0, 1, 2, 3, 4, 5}; break;
      case JointType::prismatic: span = {1, 2, 3, 4, 5}; break;
      case JointType::slider: span = joint_.def.normal ? std::vector<int>{0} : std::vector<int>{1, 2}; break;
      case JointType::distance: break;
    }
    Eigen::Matrix<double, 6, 1> xi = Eigen::Matrix<double, 6, 1>::Zero();
    for (int k : span) xi[k] = u(rng);
    xi *= size(rng) / xi.norm();
    return about(m(o_), F_, rotation_from_rotation_vector(xi.tail<3>()), xi.head<3>()) * m;
  }

  /// The stacked affine state of the model's bodies: body 2 (unless the world) moved by T2, body 1 by
  /// T2 ∘ m. Virtual links are left out (affine_error minimises over them).
  VecX state(const Motion& T2, const Motion& m) const {
    VecX q(24);
    const Motion w[2] = {T2 * m, T2};
    for (int b = 0; b < 2; ++b) {
      const ModelBody& body = model_.bodies[b];
      q.segment<12>(12 * b) = affine_state(w[b](body.position), w[b].R * body.rotation);
    }
    return q;
  }

  RigidPose pose(const VecX& q, int b) const {
    const Vec12 qb = q.segment<12>(12 * b);
    return {world_point(qb, com_[b]), state_matrix(qb)};
  }

  double rigid_error(const VecX& q) const {
    return rigid_rows(rigid_, pose(q, 0), pose(q, 1)).value.cwiseAbs().maxCoeff();
  }

  double compact_error(const VecX& q) const {
    return compact_rows(joint_, edge_, q.head<12>(), q.tail<12>()).value.cwiseAbs().maxCoeff();
  }

  /// Chen's forms: max_joint_error, or, through virtual links, the least residual of the linear rows
  /// over every state of the links (a link state that closes the chain exists iff the joint holds).
  double affine_error(const VecX& q) const {
    if (affine_.virtual_links == 0) return max_joint_error(affine_, layout_, q);
    EXPECT_TRUE(affine_.penalties.empty() && affine_.limits.empty());
    const int n = layout_.total();
    MatX C = MatX::Zero(static_cast<int>(affine_.rows.size()), n);
    VecX r(C.rows());
    for (int i = 0; i < C.rows(); ++i) {
      for (const auto& [dof, coefficient] : affine_.rows[i].terms) C(i, dof) += coefficient;
      r[i] = -affine_.rows[i].rhs;
    }
    r += C.leftCols(24) * q;
    const MatX links = C.rightCols(n - 24);
    const VecX y = links.completeOrthogonalDecomposition().solve(-r);
    return (r + links * y).cwiseAbs().maxCoeff();
  }

  /// The relative twists the joint allows after T2 ∘ m, each (v, ω): body 1's velocity field less
  /// body 2's is v + ω × (x − x₁), x₁ body 1's joint point (world vectors).
  std::vector<std::array<Vec3, 2>> allowed_twists(const Motion& T2, const Motion& m) const {
    const Mat3 F2 = T2.R * F_, F1 = (T2 * m).R * F_;
    const Vec3 zero = Vec3::Zero(), ex = Vec3::UnitX(), ey = Vec3::UnitY(), ez = Vec3::UnitZ();
    const std::vector<std::array<Vec3, 2>> spin{{zero, ex}, {zero, ey}, {zero, ez}};
    std::vector<std::array<Vec3, 2>> out;
    switch (joint_.def.type) {
      case JointType::ball:
      case JointType::cone_twist: return spin;
      case JointType::hinge: return {{zero, F2.col(0)}};
      case JointType::fixed: return {};
      case JointType::prismatic: return {{F2.col(0), zero}};
      case JointType::universal: return {{zero, F1.col(0)}, {zero, F2.col(1)}};
      case JointType::slider:
        out = spin;
        if (joint_.def.normal) out.insert(out.end(), {{F2.col(1), zero}, {F2.col(2), zero}});
        else out.push_back({F2.col(0), zero});
        return out;
      case JointType::distance: {
        const Vec3 d = (T2 * m)(joint_.def.anchor1) - T2(joint_.def.anchor2);
        const Vec3 t1 = d.cross(d.cross(ex).norm() > 0.1 * d.norm() ? ex : ey).normalized();
        out = spin;
        out.insert(out.end(), {{t1, zero}, {d.cross(t1).normalized(), zero}});
        return out;
      }
    }
    return out;
  }

  Motion random_rigid(std::mt19937& rng) const {
    if (GetParam().world) return {};
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    return {rotation_from_rotation_vector(3.0 * Vec3(u(rng), u(rng), u(rng))), Vec3(u(rng), u(rng), u(rng))};
  }

  Model model_;
  std::vector<AffineBody> bodies_;
  DofLayout layout_;
  JointModel affine_;
  ModelJoint joint_;
  RigidJoint rigid_;
  std::array<Vec3, 2> com_;
  double edge_ = 0.0;
  Vec3 o_;
  Mat3 F_;
};

TEST_P(JointMotions, AllFormsVanishOnAllowedMotionsAndNoneOnForbiddenOnes) {
  const bool compact = has_compact_rows(joint_.def.type);
  std::mt19937 rng(41);
  for (int trial = 0; trial < 20; ++trial) {
    const Motion T2 = random_rigid(rng), m = allowed(rng);
    const VecX q = state(T2, m);
    EXPECT_LE(rigid_error(q), 1e-10) << "trial " << trial;
    if (compact) {
      EXPECT_LE(compact_error(q), 1e-10) << "trial " << trial;
    }
    EXPECT_LE(affine_error(q), 1e-10) << "trial " << trial;

    const VecX bad = state(T2, forbidden(m, rng));
    EXPECT_GT(rigid_error(bad), 1e-3) << "trial " << trial;
    if (compact) {
      EXPECT_GT(compact_error(bad), 1e-3) << "trial " << trial;
    }
    EXPECT_GT(affine_error(bad), 1e-3) << "trial " << trial;
  }
}

TEST_P(JointMotions, RowsAnnihilateAllowedTwistsWithFullRank) {
  const bool compact = has_compact_rows(joint_.def.type), world = GetParam().world;
  std::mt19937 rng(43);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    const Motion T2 = random_rigid(rng), m = allowed(rng);
    const VecX q = state(T2, m);
    const RigidPose p1 = pose(q, 0), p2 = pose(q, 1);
    const RigidRows rigid = rigid_rows(rigid_, p1, p2);
    const CompactRows rows =
        compact ? compact_rows(joint_, edge_, q.head<12>(), q.tail<12>()) : CompactRows{};
    const auto twists = allowed_twists(T2, m);
    ASSERT_EQ(rigid_.count + static_cast<int>(twists.size()), 6);
    const Vec3 x1 = (T2 * m)(joint_.def.type == JointType::distance ? joint_.def.anchor1 : o_);
    for (const auto& [v_rel, w_rel] : twists) {
      // Body 2 in a random rigid motion (none for the world), body 1 in the same plus the allowed twist.
      const Vec3 v2 = world ? Vec3::Zero() : Vec3(u(rng), u(rng), u(rng));
      const Vec3 w2 = world ? Vec3::Zero() : Vec3(u(rng), u(rng), u(rng));
      const auto field2 = [&](const Vec3& x) -> Vec3 { return v2 + w2.cross(x - p2.c); };
      const auto field1 = [&](const Vec3& x) -> Vec3 { return field2(x) + v_rel + w_rel.cross(x - x1); };
      const Vec3 w1 = w2 + w_rel;
      Eigen::Matrix<double, 6, 1> u1, u2;
      u1 << field1(p1.c), w1;
      u2 << v2, w2;
      VecX rate = rigid.J1 * u1;
      if (!world) rate += rigid.J2 * u2;
      EXPECT_LE(rate.cwiseAbs().maxCoeff(), 1e-10) << "trial " << trial;
      if (!compact) continue;
      // The same motion as affine rates: ṗ = ẋ(p), Ȧ = [ω]ₓ A.
      const auto affine_rate = [&](int b, const auto& field, const Vec3& w) {
        const Vec12 qb = q.segment<12>(12 * b);
        return affine_state(field(state_translation(qb)), skew(w) * state_matrix(qb));
      };
      VecX compact_rate = rows.rows1 * affine_rate(0, field1, w1);
      if (!world) compact_rate += rows.jacobian2() * affine_rate(1, field2, w2);
      EXPECT_LE(compact_rate.cwiseAbs().maxCoeff(), 1e-10) << "trial " << trial;
    }
    const auto min_singular_value = [](const MatX& J) {
      return Eigen::JacobiSVD<MatX>(J).singularValues().minCoeff();
    };
    MatX J(rigid_.count, world ? 6 : 12);
    J.leftCols(6) = rigid.J1;
    if (!world) J.rightCols(6) = rigid.J2;
    EXPECT_GT(min_singular_value(J), 1e-3) << "trial " << trial;
    if (!compact) continue;
    MatX G(rows.value.size(), world ? 12 : 24);
    G.leftCols(12) = rows.rows1;
    if (!world) G.rightCols(12) = rows.jacobian2();
    EXPECT_GT(min_singular_value(G), 1e-3) << "trial " << trial;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Types, JointMotions,
    ::testing::Values(Case{"ball", JointType::ball, false}, Case{"ball_world", JointType::ball, true},
                      Case{"hinge", JointType::hinge, false}, Case{"hinge_world", JointType::hinge, true},
                      Case{"universal", JointType::universal, false},
                      Case{"universal_world", JointType::universal, true},
                      Case{"fixed", JointType::fixed, false}, Case{"fixed_world", JointType::fixed, true},
                      Case{"prismatic", JointType::prismatic, false},
                      Case{"prismatic_world", JointType::prismatic, true},
                      Case{"cone_twist", JointType::cone_twist, false},
                      Case{"cone_twist_world", JointType::cone_twist, true},
                      Case{"distance", JointType::distance, false},
                      Case{"distance_world", JointType::distance, true},
                      Case{"slider_plane", JointType::slider, false, true},
                      Case{"slider_plane_world", JointType::slider, true, true},
                      Case{"slider_line", JointType::slider, false},
                      Case{"slider_line_world", JointType::slider, true}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace affix
