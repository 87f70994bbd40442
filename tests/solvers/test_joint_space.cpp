// Linear joint rows eliminated by change of variables (joint_space.hpp; Chen 2022 §4.1: x = U z with
// the constraints as Dirichlet values of z) against the dense KKT solve of the same equality-
// constrained Newton step:
//   min_Δq ½ Δqᵀ H Δq + gᵀ Δq   subject to   C (q + Δq) = s,
//   [ H  Cᵀ ] [ Δq ]   [ −g         ]
//   [ C  0  ] [ λ  ] = [ s − C q    ],
// on random SPD block Hessians, with random sparse rows and with point-connection rows of jointed
// chains (Chen 2022 Eq. 6: p + A x̄ = p' + A' x̄', three rows per point). Rows on fixed or kinematic
// bodies move those bodies' terms to the right-hand side (their DOFs are held: H has identity rows and
// g is zero there). Linearly dependent rows — a second hinge on the same axis, a duplicated joint, a row
// that is a combination of others — are dropped and named, and the step does not change. A closed
// four-bar compiled from a scene (build_joint_model) has dependent rows by geometry; there the reference
// is the null-space solve on the SVD of C, which needs no independent subset of rows.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <map>
#include <random>

#include "affix/model/model.hpp"
#include "affix/solvers/ipc/joint_space.hpp"
#include "support/joint_systems.hpp"

namespace affix {
namespace {

using namespace test;

/// The joint-space step of JointSpace at q (targets from q's prescribed bodies, restoration, solve).
VecX joint_space_step(const JointSpace& joints, const NewtonSystem& s, const VecX& q) {
  SparseCholesky solver;
  VecX dq;
  EXPECT_TRUE(joints.solve(s.H, s.g, joints.restoration(q), solver, dq));
  return dq;
}

TEST(JointSpace, RandomSparseRowsGiveTheDenseKktStep) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const std::vector<AffineBody> bodies = bodies_with(4, {3});  // body 3 fixed
    JointModel model;
    model.names = {"a", "b"};
    std::uniform_int_distribution<int> dof(0, 47), count(2, 8);
    for (int r = 0; r < 14; ++r) {
      JointRow row;
      row.joint = r % 2;
      std::vector<int> used;
      for (int t = count(rng); t > 0; --t) {
        const int d = dof(rng);
        if (std::find(used.begin(), used.end(), d) != used.end()) continue;
        used.push_back(d);
        row.terms.emplace_back(d, random_vector(rng, 1)[0]);
      }
      row.rhs = random_vector(rng, 1)[0];
      // A row that touches the fixed body only would be skipped; keep one dynamic term at least.
      if (std::all_of(row.terms.begin(), row.terms.end(), [](auto t) { return t.first >= 36; }))
        row.terms.emplace_back(r, 1.0);
      model.rows.push_back(row);
    }
    const VecX q = random_vector(rng, 48);  // the rows do not hold at q: the step restores them
    JointSpace joints(bodies, model);
    joints.update_targets(q);
    ASSERT_FALSE(joints.empty());
    EXPECT_EQ(joints.redundant_rows(), 0);
    const NewtonSystem s = random_newton_system(rng, bodies);
    const VecX dq = joint_space_step(joints, s, q);
    EXPECT_LT(relative_difference(dq, kkt_step(s, model, bodies, q)), 1e-9);
    EXPECT_LT(row_residual(model, q + dq), 1e-10);
    EXPECT_TRUE(dq.segment<12>(36).isZero(0.0)) << "the fixed body does not move";
  }
}

/// A chain under a kinematic body 0 (prescribed, not solved for): body 1 hinged to body 0, body 2
/// hinged to body 1, body 3 on a ball joint to body 2.
JointModel chain_model(const VecX& q) {
  JointModel model;
  add_hinge(model, "h1", q, 1, 0, Vec3(0.1, 0.2, 1.5), Vec3(0, 0.4, 0.1));
  add_hinge(model, "h2", q, 2, 1, Vec3(-0.2, 0.1, 1.0), Vec3(0.2, 0.2, 0.2));
  add_ball(model, "ball", q, 3, 2, Vec3(0.0, 0.3, 0.6));
  return model;
}

TEST(JointSpace, JointChainStepEqualsDenseKktAndKeepsEveryJointExact) {
  std::mt19937 rng(11);
  const std::vector<AffineBody> bodies = bodies_with(4, {}, {0});  // body 0 kinematic
  const VecX q0 = random_poses(rng, 4);
  const JointModel model = chain_model(q0);
  ASSERT_LT(row_residual(model, q0), 1e-12) << "rows built at q0 hold there";
  JointSpace joints(bodies, model);
  EXPECT_EQ(joints.redundant_rows(), 0);

  // The kinematic body moved and the others drifted: the step must carry every joint to exactness.
  VecX q = q0 + random_vector(rng, 48, 1e-3);
  joints.update_targets(q);
  const NewtonSystem s = random_newton_system(rng, bodies);
  const VecX dq = joint_space_step(joints, s, q);
  EXPECT_LT(relative_difference(dq, kkt_step(s, model, bodies, q)), 1e-9);
  EXPECT_LT(row_residual(model, q + dq), 1e-12);

  // At a state where the rows already hold, the step stays on them for any α (a line search point).
  q = q + dq;
  joints.update_targets(q);
  const NewtonSystem s2 = random_newton_system(rng, bodies);
  const VecX dq2 = joint_space_step(joints, s2, q);
  EXPECT_LT(relative_difference(dq2, kkt_step(s2, model, bodies, q)), 1e-9);
  for (const double alpha : {0.1, 0.5, 1.0}) EXPECT_LT(row_residual(model, q + alpha * dq2), 1e-12);
}

TEST(JointSpace, RedundantRowsAreDroppedNamedAndChangeNothing) {
  std::mt19937 rng(12);
  const std::vector<AffineBody> bodies = bodies_with(4, {}, {0});
  const VecX q0 = random_poses(rng, 4);
  const JointModel independent = chain_model(q0);

  JointModel redundant = independent;
  // A second hinge on h1's axis at another anchor on it: both its points lie on the line that h1
  // already fixes, so its six rows are combinations of h1's (Eq. 6–8 are linear in the point).
  const Vec3 h1_anchor(0.1, 0.2, 1.5), h1_axis(0, 0.4, 0.1);
  add_hinge(redundant, "h1_again", q0, 1, 0, h1_anchor + 0.7 * h1_axis, 0.5 * h1_axis);
  // The ball joint given twice.
  add_ball(redundant, "ball_again", q0, 3, 2, Vec3(0.0, 0.3, 0.6));
  // One row that is a combination of two rows of h2 (rhs alike).
  {
    redundant.names.push_back("combination");
    const JointRow &r1 = independent.rows[6], &r2 = independent.rows[10];
    JointRow row;
    row.joint = static_cast<int>(redundant.names.size()) - 1;
    std::map<int, double> sum;
    for (const auto& [d, c] : r1.terms) sum[d] += 2.0 * c;
    for (const auto& [d, c] : r2.terms) sum[d] -= 3.0 * c;
    row.terms.assign(sum.begin(), sum.end());
    row.rhs = 2.0 * r1.rhs - 3.0 * r2.rhs;
    redundant.rows.push_back(row);
  }

  JointSpace with(bodies, redundant), without(bodies, independent);
  EXPECT_EQ(with.redundant_rows(), 6 + 3 + 1);
  EXPECT_EQ(with.redundant_joints(), (std::vector<std::string>{"h1_again", "ball_again", "combination"}));
  EXPECT_TRUE(without.redundant_joints().empty());

  const VecX q = q0 + random_vector(rng, 48, 1e-3);
  with.update_targets(q);
  without.update_targets(q);
  const NewtonSystem s = random_newton_system(rng, bodies);
  const VecX dq_with = joint_space_step(with, s, q), dq_without = joint_space_step(without, s, q);
  EXPECT_LT(relative_difference(dq_with, dq_without), 1e-9);
  EXPECT_LT(relative_difference(dq_with, kkt_step(s, independent, bodies, q)), 1e-9);
  EXPECT_LT(row_residual(redundant, q + dq_with), 1e-11) << "the dropped rows hold too";
}

TEST(JointSpace, RowsOnPrescribedBodiesOnlyLeaveNothingToSolve) {
  std::mt19937 rng(13);
  const std::vector<AffineBody> bodies = bodies_with(3, {0}, {1});
  const VecX q = random_poses(rng, 3);
  JointModel model;
  add_hinge(model, "between_prescribed", q, 0, 1, Vec3(0, 0, 1), Vec3(0, 0, 0.5));
  add_ball(model, "to_world", q, 1, kNoBody, Vec3(1, 0, 0));
  const JointSpace joints(bodies, model);
  EXPECT_TRUE(joints.empty());
  EXPECT_EQ(joints.redundant_rows(), 0);

  add_ball(model, "dynamic", q, 2, 1, Vec3(0.5, 0.5, 0.5));
  EXPECT_FALSE(JointSpace(bodies, model).empty());
}

/// The constrained step by a route independent of the elimination, valid with dependent rows: the
/// minimum-norm Δp with C Δp = s − C q (complete orthogonal decomposition) plus the null-space correction
/// Z (Zᵀ H Z)⁻¹ Zᵀ (−g − H Δp), Z from the SVD of C (rank from its singular values), on the dynamic DOFs.
/// Reports the numerical rank of C.
VecX null_space_step(const NewtonSystem& s, const JointModel& model, const std::vector<AffineBody>& bodies,
                     const VecX& q, int& rank) {
  std::vector<int> free;
  for (int d = 0; d < static_cast<int>(q.size()); ++d)
    if (!bodies[d / 12].is_dirichlet()) free.push_back(d);
  std::vector<int> index(q.size(), -1);
  for (int k = 0; k < static_cast<int>(free.size()); ++k) index[free[k]] = k;
  const int nf = static_cast<int>(free.size()), m = static_cast<int>(model.rows.size());
  MatX C = MatX::Zero(m, nf), H(nf, nf);
  VecX r(m), g(nf);
  for (int i = 0; i < m; ++i) {
    r[i] = model.rows[i].rhs;
    for (const auto& [dof, c] : model.rows[i].terms) {
      r[i] -= c * q[dof];
      if (index[dof] >= 0) C(i, index[dof]) = c;
    }
  }
  for (int a = 0; a < nf; ++a) {
    g[a] = s.g[free[a]];
    for (int b = 0; b < nf; ++b) H(a, b) = s.dense(free[a], free[b]);
  }
  const VecX particular = C.completeOrthogonalDecomposition().solve(r);
  EXPECT_LT((C * particular - r).norm(), 1e-10 * std::max(1.0, r.norm())) << "the rows must be consistent";
  Eigen::JacobiSVD<MatX> svd(C, Eigen::ComputeFullV);
  svd.setThreshold(1e-9);
  rank = static_cast<int>(svd.rank());
  const MatX Z = svd.matrixV().rightCols(nf - rank);
  const VecX y = (Z.transpose() * H * Z).ldlt().solve(Z.transpose() * (-g - H * particular));
  const VecX step = particular + Z * y;
  VecX dq = VecX::Zero(q.size());
  for (int a = 0; a < nf; ++a) dq[free[a]] = step[a];
  return dq;
}

/// A box whose local z runs from `from` to `to`: a link of a linkage.
BodyDef link(const std::string& name, const Vec3& from, const Vec3& to) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{Vec3(0.03, 0.05, (to - from).norm()), 1};
  b.position = 0.5 * (from + to);
  b.rotation = Quat::FromTwoVectors(Vec3::UnitZ(), to - from);
  return b;
}

TEST(JointSpace, ClosedFourBarFromTheSceneDropsItsDependentRowsAndStepsLikeTheNullSpaceSolve) {
  // A planar four-bar hanging from a fixed ground link, every hinge axis y, compiled as the solver
  // does (compile → affine_bodies → build_joint_model). The loop's fourth hinge repeats, in the
  // directions the plane fixes already, what the other three imply.
  const Vec3 A(0, 0, 0), D(0.4, 0, 0), B = A + Vec3(0.1, 0, -0.3), C = D + Vec3(0.05, 0, -0.35);
  Scene scene;
  scene.name = "four_bar";
  scene.file = "four_bar.json";
  scene.bodies = {link("ground", A, D), link("crank", A, B), link("coupler", B, C), link("rocker", D, C)};
  scene.bodies[0].fixed = true;
  const struct {
    int body1, body2;
    Vec3 anchor;
  } hinges[] = {{1, 0, A}, {2, 1, B}, {3, 2, C}, {3, 0, D}};
  for (const auto& h : hinges) {
    JointDef j;
    j.name = "hinge" + std::to_string(scene.joints.size());
    j.type = JointType::hinge;
    j.body1 = scene.bodies[h.body1].name;
    j.body2 = scene.bodies[h.body2].name;
    j.body1_index = h.body1;
    j.body2_index = h.body2;
    j.anchor = h.anchor;
    j.axis = Vec3::UnitY();
    scene.joints.push_back(j);
  }
  const Model model = compile(scene);
  std::vector<AffineBody> bodies = affine_bodies(model);
  DofLayout layout = affine_layout(bodies);
  const JointModel joints = build_joint_model(model, bodies, layout, 1e-3);
  ASSERT_EQ(bodies.size(), 4u) << "hinges need no virtual links";
  VecX q0(48);
  for (int i = 0; i < 4; ++i) q0.segment<12>(12 * i) = bodies[i].q0;
  ASSERT_LT(row_residual(joints, q0), 1e-12);

  JointSpace space(bodies, joints);
  EXPECT_GT(space.redundant_rows(), 0);
  EXPECT_EQ(space.redundant_joints(), std::vector<std::string>{"hinge3"}) << "the loop's last hinge";

  std::mt19937 rng(15);
  VecX q = q0;
  q.tail<36>() += random_vector(rng, 36, 1e-4);  // the links drifted off their hinges; ground fixed
  space.update_targets(q);
  const NewtonSystem s = random_newton_system(rng, bodies);
  int rank = 0;
  const VecX reference = null_space_step(s, joints, bodies, q, rank);
  EXPECT_EQ(rank, static_cast<int>(joints.rows.size()) - space.redundant_rows())
      << "the rows kept are as many as C's rank";
  const VecX dq = joint_space_step(space, s, q);
  EXPECT_LT(relative_difference(dq, reference), 1e-8);
  EXPECT_LT(row_residual(joints, q + dq), 1e-12) << "every row, dropped ones included, holds after the step";
}

TEST(JointSpace, ToSparseAssemblesBothTriangles) {
  std::mt19937 rng(14);
  const std::vector<AffineBody> bodies = bodies_with(3);
  const NewtonSystem s = random_newton_system(rng, bodies);
  EXPECT_TRUE(MatX(to_sparse(s.H)).isApprox(s.dense, 1e-15));
}

}  // namespace
}  // namespace affix
