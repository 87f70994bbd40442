// The joint potentials assembled into the incremental potential (Chen 2022 §4.2–4.3: penalties ½kc²
// and limit barriers κb(c)) and the Rayleigh damping potential (Chen 2022 §5.1), against finite
// differences in the stacked affine DOFs q (12 per body).
//
// What is provable about the Hessian: IncrementalPotential projects every stencil's Hessian to PSD
// before assembly, so it equals the Jacobian of the gradient only where no stencil needed projecting.
// At the "rigid" evaluation point below every stencil is PSD as it stands:
//   - inertia: M; orthogonality at an exact rotation: the Gauss–Newton term only (residual 0);
//   - distance penalty, stretched (c > 0): ∇²(½kc²) = k[ûûᵀ + (c/‖d‖)(I − ûûᵀ)] ⊗ [1 −1; −1 1] ⪰ 0;
//   - line penalty on its line (c = 0): ½kc² = (k/2L²)‖w‖², w = (x₀ − x₁) × (x₂ − x₁), whose Hessian
//     (k/L²)(JᵥᵀJᵥ + Σ wᵢ∇²wᵢ) is (k/L²)JᵥᵀJᵥ ⪰ 0 at w = 0 (its gradient is 0 there);
//   - an upper limit (every hinge range is one): c = bound − ‖d‖ has ∇²c ⪯ 0 and b' ≤ 0, b'' ≥ 0, so
//     κ(b''∇c∇cᵀ + b'∇²c) ⪰ 0.
// So the Hessian is compared there in full, and at a general perturbed point (off the line, non-rigid
// bodies) only the gradient is compared.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "affix/joints/joint_model.hpp"
#include "affix/solvers/ipc/incremental_potential.hpp"
#include "support/finite_differences.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr double kDhat = 1e-2;  // also the limits' ĉ
constexpr double kDeg = 3.14159265358979323846 / 180.0;

MatX dense(const BlockHessian& H) {
  const int n = H.block_count();
  MatX D = MatX::Zero(12 * n, 12 * n);
  for (int i = 0; i < n; ++i) D.block<12, 12>(12 * i, 12 * i) = H.diagonal(i);
  for (const auto& [key, block] : H.couplings()) {  // key (column, row), block (row, column)
    D.block<12, 12>(12 * key.second, 12 * key.first) = block;
    D.block<12, 12>(12 * key.first, 12 * key.second) = block.transpose();
  }
  return D;
}

/// The state of a body moved rigidly from q0 by x ↦ R (x − pivot) + pivot + t.
Vec12 moved(const Vec12& q0, const Mat3& R, const Vec3& pivot, const Vec3& t) {
  return affine_state(R * (state_translation(q0) - pivot) + pivot + t, R * state_matrix(q0));
}

/// Four boxes: `tip` on a distance joint to `base` (a penalty), `bead` sliding on a line of `base` (a
/// line penalty: base is free), `door` on a hinge to `tip` with a ±20° range (an upper-bound limit).
struct JointSetup {
  Scene scene;
  Model compiled;
  std::vector<AffineBody> bodies;
  DofLayout layout;
  JointModel model;
  VecX q_rigid;    ///< every body rigid, distance stretched, bead on its line, door near its limit
  VecX q_general;  ///< q_rigid perturbed in every DOF
  StepConstants c;
};

void build(JointSetup& s) {
  const Vec3 hinge_anchor(0.6, 0.3, 0), bead_point(0, 0.5, 0);
  s.scene = test::scene_with({test::box_body("base", Vec3::Constant(0.2), Vec3(0, 0, 0)),
                              test::box_body("tip", Vec3::Constant(0.2), Vec3(0.6, 0, 0)),
                              test::box_body("bead", Vec3::Constant(0.2), Vec3(0, 0.6, 0)),
                              test::box_body("door", Vec3::Constant(0.2), Vec3(0.6, 0.6, 0))},
                             0.01, std::nullopt);
  s.scene.settings.solver_settings["ipc"]["dhat"] = kDhat;
  JointDef distance;
  distance.name = "distance";
  distance.type = JointType::distance;
  distance.body1 = "tip", distance.body1_index = 1;
  distance.body2 = "base", distance.body2_index = 0;
  distance.anchor1 = Vec3(0.5, 0, 0);
  distance.anchor2 = Vec3(0.1, 0, 0);
  JointDef slider;
  slider.name = "slider";
  slider.type = JointType::slider;
  slider.body1 = "bead", slider.body1_index = 2;
  slider.body2 = "base", slider.body2_index = 0;
  slider.point = bead_point;
  slider.direction = Vec3::UnitY();
  JointDef hinge;
  hinge.name = "hinge";
  hinge.type = JointType::hinge;
  hinge.body1 = "door", hinge.body1_index = 3;
  hinge.body2 = "tip", hinge.body2_index = 1;
  hinge.anchor = hinge_anchor;
  hinge.axis = Vec3::UnitZ();
  hinge.angle_limits = AngleRange{-20 * kDeg, 20 * kDeg};
  hinge.damping = 0.05;  // Rayleigh k_d of its limit (s)
  s.scene.joints = {distance, slider, hinge};

  s.compiled = compile(s.scene);
  s.bodies = affine_bodies(s.compiled);
  s.layout = affine_layout(s.bodies);
  s.model = build_joint_model(s.compiled, s.bodies, s.layout, kDhat);
  ASSERT_EQ(s.model.penalties.size(), 2u);
  ASSERT_EQ(s.model.limits.size(), 1u);

  // The rigid point: tip pulled 2 mm away from base, bead turned about its point and moved along its
  // line, door turned about the hinge axis until its limit function is 0.4 ĉ.
  const int n = static_cast<int>(s.bodies.size());
  s.q_rigid.resize(s.layout.total());
  for (int i = 0; i < n; ++i) body_segment(s.layout, s.q_rigid, i) = s.bodies[i].q0;
  const Vec3 pull(0.002, 0, 0);
  body_segment(s.layout, s.q_rigid, 1) = moved(s.bodies[1].q0, Mat3::Identity(), Vec3::Zero(), pull);
  body_segment(s.layout, s.q_rigid, 2) = moved(s.bodies[2].q0, Mat3(Eigen::AngleAxisd(0.3, Vec3::UnitZ())), bead_point,
                                     Vec3(0, 0.01, 0));
  const double ell = s.bodies[3].bounding_radius, half = 20 * kDeg;
  const double theta = 2.0 * std::asin((2.0 * ell * std::sin(0.5 * half) - 0.4 * kDhat) / (2.0 * ell));
  body_segment(s.layout, s.q_rigid, 3) =
      moved(s.bodies[3].q0, Mat3(Eigen::AngleAxisd(theta, Vec3::UnitZ())), hinge_anchor, pull);

  s.q_general = s.q_rigid + 1e-4 * VecX::Random(s.layout.total());

  s.c.beta_h2 = 1e-4;
  s.c.kappa = 1e6;
  s.c.friction_eps = 1e-5;
  for (int i = 0; i < n; ++i) {
    s.c.q_tilde.push_back(body_segment(s.layout, s.q_rigid, i) + 1e-3 * Vec12::Random());
    s.c.loads.push_back(Vec12::Random());
  }
  s.c.friction.resize(n);
}

/// The evaluation point really has every joint term in the regime the header describes.
void expect_active_joints(const JointSetup& s, const VecX& q, bool on_line) {
  for (const JointPenalty& p : s.model.penalties) {
    Vec12 x = Vec12::Zero();
    for (int k = 0; k < 4; ++k) x.segment<3>(3 * k) = body_point_position(s.layout, q, p.points[k]);
    const double c = penalty_constraint(p.kind, x, p.length);
    if (p.kind == PenaltyKind::distance) {
      EXPECT_GT(c, 1e-3) << "distance penalty not stretched";
    } else if (on_line) {
      EXPECT_LT(std::abs(c), 1e-12) << "bead not on its line";
    } else {
      EXPECT_GT(std::abs(c), 1e-6) << "bead on its line";
    }
  }
  const JointLimit& l = s.model.limits[0];
  EXPECT_EQ(l.side, BoundSide::upper);
  Vec6 x;
  x << body_point_position(s.layout, q, l.a), body_point_position(s.layout, q, l.b);
  const double c = limit_function(x, l.bound, l.side);
  EXPECT_GT(c, 0.0);
  EXPECT_LT(c, kDhat) << "the limit barrier is not active";
  std::printf("limit function c = %.4e m (chat %.0e m)\n", c, kDhat);
}

struct Evaluated {
  VecX g;
  BlockHessian H;
};

Evaluated evaluate(const IncrementalPotential& potential, const VecX& q, const StepConstants& c) {
  Evaluated e;
  potential.gradient_and_hessian(q, c, IncrementalPotential::BodyMask(q.size() / 12, 1), e.g, e.H);
  return e;
}

TEST(JointEnergies, GradientMatchesFiniteDifferencesAtAGeneralPoint) {
  JointSetup s;
  ASSERT_NO_FATAL_FAILURE(build(s));
  const VecX& q = s.q_general;
  expect_active_joints(s, q, false);
  const JointModel no_joints;
  IncrementalPotential potential(s.bodies, std::nullopt, kDhat, s.model);
  IncrementalPotential bare(s.bodies, std::nullopt, kDhat, no_joints);
  potential.update_contact_candidates(q, nullptr);
  bare.update_contact_candidates(q, nullptr);

  const VecX g = evaluate(potential, q, s.c).g;
  const VecX g_fd = test::fd_gradient([&](const VecX& x) { return potential.energy(x, s.c); }, q, 1e-7);
  EXPECT_TRUE(test::near_relative(g, g_fd, 1e-6));

  // The joints' share alone: the difference with the same potential without joints.
  const VecX g_joints = g - evaluate(bare, q, s.c).g;
  ASSERT_GT(g_joints.cwiseAbs().maxCoeff(), 1.0) << "the joint terms contribute no gradient";
  for (int body = 0; body < 4; ++body)
    EXPECT_GT(body_segment(s.layout, g_joints, body).norm(), 0.0) << "no joint gradient on body " << body;
  const VecX g_joints_fd = test::fd_gradient(
      [&](const VecX& x) { return potential.energy(x, s.c) - bare.energy(x, s.c); }, q, 1e-7);
  EXPECT_TRUE(test::near_relative(g_joints, g_joints_fd, 1e-6));
  std::printf("general point: |g_joints|inf %.3e, |g_joints - fd|inf %.3e\n", g_joints.cwiseAbs().maxCoeff(),
              (g_joints - g_joints_fd).cwiseAbs().maxCoeff());
}

TEST(JointEnergies, GradientAndHessianMatchFiniteDifferencesWhereEveryStencilIsConvex) {
  JointSetup s;
  ASSERT_NO_FATAL_FAILURE(build(s));
  const VecX& q = s.q_rigid;
  expect_active_joints(s, q, true);
  IncrementalPotential potential(s.bodies, std::nullopt, kDhat, s.model);
  JointModel limits_only = s.model, penalties_only = s.model;
  limits_only.penalties.clear();
  penalties_only.limits.clear();
  const IncrementalPotential without_penalties(s.bodies, std::nullopt, kDhat, limits_only);
  const IncrementalPotential without_limits(s.bodies, std::nullopt, kDhat, penalties_only);
  potential.update_contact_candidates(q, nullptr);

  const Evaluated e = evaluate(potential, q, s.c);
  const VecX g_fd = test::fd_gradient([&](const VecX& x) { return potential.energy(x, s.c); }, q, 1e-7);
  EXPECT_TRUE(test::near_relative(e.g, g_fd, 1e-6));

  const auto gradient = [&](const VecX& x) { return evaluate(potential, x, s.c).g; };
  const MatX H = dense(e.H), H_fd = test::fd_jacobian(gradient, q, 1e-7);
  EXPECT_TRUE(test::near_relative(H, H_fd, 1e-6));
  std::printf("rigid point: |H|max %.3e, |H - fd|max %.3e, |g|inf %.3e, |g - fd|inf %.3e\n",
              H.cwiseAbs().maxCoeff(), (H - H_fd).cwiseAbs().maxCoeff(), e.g.cwiseAbs().maxCoeff(),
              (e.g - g_fd).cwiseAbs().maxCoeff());
  // Each joint kind really adds curvature here (so the comparison covers it).
  EXPECT_GT((H - dense(evaluate(without_penalties, q, s.c).H)).norm(), 1e2) << "no penalty Hessian";
  EXPECT_GT((H - dense(evaluate(without_limits, q, s.c).H)).norm(), 1e2) << "no limit-barrier Hessian";
}

// ------------------------------------------------------------ Rayleigh damping

/// Energy, gradient and Hessian with and without the damping potential R = (γ/2)eᵀKe, e = q − q_off,
/// which the incremental potential adds scaled by βh².
void check_damping(const JointSetup& s, const IncrementalPotential& potential, const StepConstants& damped,
                   const VecX& q) {
  const MatX K = dense(damped.damping);
  const int n = s.layout.body_count();
  VecX e(s.layout.total());
  for (int i = 0; i < n; ++i) body_segment(s.layout, e, i) = body_segment(s.layout, q, i) - damped.damping_offset[i];
  const double scale = damped.beta_h2 * damped.damping_gamma;

  const double R = potential.energy(q, damped) - potential.energy(q, s.c);
  EXPECT_NEAR(R, 0.5 * scale * e.dot(K * e), 1e-9 * std::abs(R));
  ASSERT_GT(R, 0.0);

  const Evaluated with = evaluate(potential, q, damped), without = evaluate(potential, q, s.c);
  const VecX g_R = with.g - without.g;
  ASSERT_GT(g_R.cwiseAbs().maxCoeff(), 1e-3) << "the damping has no gradient";
  EXPECT_TRUE(test::near_relative(g_R, scale * K * e, 1e-9));
  const VecX g_fd = test::fd_gradient([&](const VecX& x) { return potential.energy(x, damped); }, q, 1e-7);
  EXPECT_TRUE(test::near_relative(with.g, g_fd, 1e-6));
  EXPECT_TRUE(test::near_relative(dense(with.H) - dense(without.H), scale * K, 1e-9));
  std::printf("damping: R %.4e J, |grad R|inf %.3e, |g - fd|inf %.3e\n", R, g_R.cwiseAbs().maxCoeff(),
              (with.g - g_fd).cwiseAbs().maxCoeff());
}

TEST(JointEnergies, RayleighDampingOfAGivenPsdMatrixIsHalfGammaETransposeKE) {
  JointSetup s;
  ASSERT_NO_FATAL_FAILURE(build(s));
  const VecX& q = s.q_general;
  IncrementalPotential potential(s.bodies, std::nullopt, kDhat, s.model);
  potential.update_contact_candidates(q, nullptr);
  // K: a PSD pair block G Gᵀ on bodies 1 and 3 (with its coupling) plus a PSD block on body 0.
  const MatX G = MatX::Random(24, 30), B = MatX::Random(12, 12);
  const MatX pair = G * G.transpose();
  StepConstants damped = s.c;
  damped.damping.reset(4);
  damped.damping.diagonal(0) = B * B.transpose();
  damped.damping.diagonal(1) = pair.topLeftCorner(12, 12);
  damped.damping.diagonal(3) = pair.bottomRightCorner(12, 12);
  damped.damping.add_coupling(3, 1, pair.bottomLeftCorner(12, 12));
  damped.damping_gamma = 100.0;  // 1/h
  for (int i = 0; i < 4; ++i) damped.damping_offset.push_back(body_segment(s.layout, q, i) + 1e-1 * Vec12::Random());
  ASSERT_GE(Eigen::SelfAdjointEigenSolver<MatX>(dense(damped.damping)).eigenvalues().minCoeff(), -1e-9);
  check_damping(s, potential, damped, q);
}

TEST(JointEnergies, RayleighDampingOfAnActiveLimitIsItsDampedBarrierHessian) {
  JointSetup s;
  ASSERT_NO_FATAL_FAILURE(build(s));
  const VecX& q = s.q_rigid;
  IncrementalPotential potential(s.bodies, std::nullopt, kDhat, s.model);
  JointModel penalties_only = s.model;
  penalties_only.limits.clear();
  const IncrementalPotential without_limits(s.bodies, std::nullopt, kDhat, penalties_only);
  potential.update_contact_candidates(q, nullptr);

  // K = k_d · PSD(∇²κb) of the active limit; at q_rigid the barrier stencil is PSD as it stands, so
  // K is the limit's share of the assembled Hessian, which carries the factor βh².
  StepConstants damped = s.c;
  damped.damping = potential.damping_hessian(q, s.c.kappa);
  ASSERT_EQ(damped.damping.block_count(), 4);
  const MatX K = dense(damped.damping);
  const MatX limit_hessian = dense(evaluate(potential, q, s.c).H) - dense(evaluate(without_limits, q, s.c).H);
  EXPECT_TRUE(test::near_relative(K, (0.05 / s.c.beta_h2) * limit_hessian, 1e-9));
  EXPECT_GT((K.block<12, 12>(36, 12).norm()), 0.0) << "no door–tip coupling block";
  EXPECT_GE(Eigen::SelfAdjointEigenSolver<MatX>(K).eigenvalues().minCoeff(), -1e-9 * K.norm());

  damped.damping_gamma = 100.0;
  for (int i = 0; i < 4; ++i) damped.damping_offset.push_back(body_segment(s.layout, q, i) + 1e-3 * Vec12::Random());
  check_damping(s, potential, damped, q);
}

}  // namespace
}  // namespace affix
