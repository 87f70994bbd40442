#pragma once
// Newton systems with linear joint rows for the tests of the ipc joint step (test_joint_space.cpp,
// test_joint_step.cpp): rows of point connections (Chen 2022 Eq. 6–8) between affine bodies at random
// poses, random SPD block Hessians (dense, every pair coupled; or sparse, as sums of PSD pair stencils
// on chosen body pairs, the way contact and joint energies assemble), and the dense KKT reference.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "affix/joints/joint_model.hpp"
#include "affix/solvers/linear/block_hessian.hpp"

namespace affix::test {

inline constexpr int kNoBody = -1;  // the world

inline std::vector<AffineBody> bodies_with(int n, std::vector<int> fixed = {}, std::vector<int> kinematic = {}) {
  std::vector<AffineBody> bodies(n);
  for (int i : fixed) bodies[i].fixed = true;
  for (int i : kinematic) bodies[i].kinematic = Kinematic{};
  return bodies;
}

/// The three rows of a point connection (Chen 2022 Eq. 6) between rest point a of body_a and rest
/// point b of body_b (body_b = world: b is a world point), p + A x̄ with q = (p, rows of A):
///   p_k + Σ_j x̄_j A_kj  −  (p'_k + Σ_j x̄'_j A'_kj) = 0,   k = 0, 1, 2.
inline void add_point_connection(JointModel& model, int joint, int body_a, const Vec3& a, int body_b, const Vec3& b) {
  for (int k = 0; k < 3; ++k) {
    JointRow row;
    row.joint = joint;
    const auto add_point = [&](int body, const Vec3& x_bar, double sign) {
      row.terms.emplace_back(12 * body + k, sign);
      for (int j = 0; j < 3; ++j) row.terms.emplace_back(12 * body + 3 + 3 * k + j, sign * x_bar[j]);
    };
    add_point(body_a, a, 1.0);
    if (body_b == kNoBody) row.rhs = b[k];
    else add_point(body_b, b, -1.0);
    model.rows.push_back(row);
  }
}

inline Vec3 rest_point(const VecX& q, int body, const Vec3& world) {
  const Vec12 qi = q.segment<12>(12 * body);
  return state_matrix(qi).inverse() * (world - state_translation(qi));
}

/// A hinge at `anchor` along `axis` between two bodies at state q: point connections at the anchor and
/// at anchor + axis (Chen 2022 Eq. 8).
inline void add_hinge(JointModel& model, const std::string& name, const VecX& q, int body_a, int body_b,
               const Vec3& anchor, const Vec3& axis) {
  const int joint = static_cast<int>(model.names.size());
  model.names.push_back(name);
  for (const Vec3& w : {anchor, Vec3(anchor + axis)}) {
    add_point_connection(model, joint, body_a, rest_point(q, body_a, w), body_b,
                         body_b == kNoBody ? w : rest_point(q, body_b, w));
  }
}

inline void add_ball(JointModel& model, const std::string& name, const VecX& q, int body_a, int body_b,
              const Vec3& anchor) {
  const int joint = static_cast<int>(model.names.size());
  model.names.push_back(name);
  add_point_connection(model, joint, body_a, rest_point(q, body_a, anchor), body_b,
                       body_b == kNoBody ? anchor : rest_point(q, body_b, anchor));
}

/// Random rigid poses (rotation, translation) of n bodies.
inline VecX random_poses(std::mt19937& rng, int n) {
  std::normal_distribution<double> g;
  VecX q(12 * n);
  for (int i = 0; i < n; ++i) {
    const Mat3 R = Quat(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
    q.segment<12>(12 * i) = affine_state(Vec3(g(rng), g(rng), g(rng)), R);
  }
  return q;
}

inline VecX random_vector(std::mt19937& rng, int size, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX v(size);
  for (int k = 0; k < size; ++k) v[k] = u(rng);
  return v;
}

/// A random SPD Newton system over the bodies, every pair of dynamic bodies coupled, Dirichlet bodies'
/// rows and columns replaced by the identity and their gradient zero (as IncrementalPotential leaves
/// them). Returns H as a BlockHessian, its dense twin, and g.
struct NewtonSystem {
  BlockHessian H;
  MatX dense;
  VecX g;
};

inline NewtonSystem random_newton_system(std::mt19937& rng, const std::vector<AffineBody>& bodies) {
  const int n = static_cast<int>(bodies.size());
  NewtonSystem s;
  // A = B Bᵀ + I over all DOFs: SPD; then copy into blocks.
  const MatX B = MatX(random_vector(rng, 144 * n * n).reshaped(12 * n, 12 * n));
  s.dense = B * B.transpose() / (12.0 * n) + MatX::Identity(12 * n, 12 * n);
  s.g = random_vector(rng, 12 * n);
  for (int i = 0; i < n; ++i) {
    if (!bodies[i].is_dirichlet()) continue;
    s.dense.middleRows(12 * i, 12).setZero();
    s.dense.middleCols(12 * i, 12).setZero();
    s.dense.block(12 * i, 12 * i, 12, 12).setIdentity();
    s.g.segment<12>(12 * i).setZero();
  }
  s.H.reset(n);
  for (int i = 0; i < n; ++i) {
    s.H.diagonal(i) = s.dense.block<12, 12>(12 * i, 12 * i);
    for (int j = 0; j < i; ++j)
      if (!bodies[i].is_dirichlet() && !bodies[j].is_dirichlet())
        s.H.add_coupling(i, j, s.dense.block<12, 12>(12 * i, 12 * j));
  }
  return s;
}

/// The dense KKT step: Dirichlet DOFs held (Δq = 0 there), every row of `model` with its terms on
/// Dirichlet bodies moved to the right-hand side at q.
inline VecX kkt_step(const NewtonSystem& s, const JointModel& model, const std::vector<AffineBody>& bodies,
              const VecX& q) {
  std::vector<int> free;  // DOFs of dynamic bodies
  for (int d = 0; d < static_cast<int>(q.size()); ++d)
    if (!bodies[d / 12].is_dirichlet()) free.push_back(d);
  std::vector<int> index(q.size(), -1);
  for (int k = 0; k < static_cast<int>(free.size()); ++k) index[free[k]] = k;
  const int nf = static_cast<int>(free.size()), m = static_cast<int>(model.rows.size());
  MatX K = MatX::Zero(nf + m, nf + m);
  VecX rhs = VecX::Zero(nf + m);
  for (int a = 0; a < nf; ++a) {
    rhs[a] = -s.g[free[a]];
    for (int b = 0; b < nf; ++b) K(a, b) = s.dense(free[a], free[b]);
  }
  for (int r = 0; r < m; ++r) {
    double residual = model.rows[r].rhs;  // s − C q
    for (const auto& [dof, c] : model.rows[r].terms) {
      residual -= c * q[dof];
      if (index[dof] >= 0) K(nf + r, index[dof]) = K(index[dof], nf + r) = c;
    }
    rhs[nf + r] = residual;
  }
  const VecX solution = K.fullPivLu().solve(rhs);
  EXPECT_LT((K * solution - rhs).norm(), 1e-9 * rhs.norm()) << "the reference KKT system must be regular";
  VecX dq = VecX::Zero(q.size());
  for (int a = 0; a < nf; ++a) dq[free[a]] = solution[a];
  return dq;
}

inline double row_residual(const JointModel& model, const VecX& q) {
  double worst = 0.0;
  for (const JointRow& row : model.rows) {
    double r = -row.rhs;
    for (const auto& [dof, c] : row.terms) r += c * q[dof];
    worst = std::max(worst, std::abs(r));
  }
  return worst;
}

inline double relative_difference(const VecX& a, const VecX& b) {
  return (a - b).lpNorm<Eigen::Infinity>() / std::max(1e-300, b.lpNorm<Eigen::Infinity>());
}


/// A random SPD Newton system on `bodies` with coupling blocks on `pairs` only: a random SPD block per
/// dynamic body plus, per pair, a random PSD 24×24 stencil Hessian of rank `rank` scaled by `stiffness`
/// (so H stays positive definite and its pattern is the pairs'). Dirichlet bodies as in
/// random_newton_system.
inline NewtonSystem sparse_newton_system(std::mt19937& rng, const std::vector<AffineBody>& bodies,
                                         std::vector<std::pair<int, int>> pairs, double stiffness = 1.0,
                                         int rank = 6) {
  const int n = static_cast<int>(bodies.size());
  for (auto& [i, j] : pairs) std::tie(i, j) = std::minmax(i, j);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::erase_if(pairs, [](const std::pair<int, int>& p) { return p.first == p.second; });
  NewtonSystem s;
  s.dense = MatX::Zero(12 * n, 12 * n);
  s.g = random_vector(rng, 12 * n);
  for (int i = 0; i < n; ++i) {
    const MatX B = MatX(random_vector(rng, 144).reshaped(12, 12));
    s.dense.block(12 * i, 12 * i, 12, 12) = B * B.transpose() / 12.0 + MatX::Identity(12, 12);
  }
  for (const auto& [i, j] : pairs) {
    if (bodies[i].is_dirichlet() || bodies[j].is_dirichlet()) continue;
    const MatX B = MatX(random_vector(rng, 24 * rank).reshaped(24, rank));
    const MatX P = stiffness * B * B.transpose();
    const int at[2] = {12 * i, 12 * j};
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) s.dense.block(at[a], at[b], 12, 12) += P.block(12 * a, 12 * b, 12, 12);
  }
  for (int i = 0; i < n; ++i) {
    if (!bodies[i].is_dirichlet()) continue;
    s.dense.block(12 * i, 12 * i, 12, 12).setIdentity();
    s.g.segment<12>(12 * i).setZero();
  }
  s.H.reset(n);
  for (int i = 0; i < n; ++i) s.H.diagonal(i) = s.dense.block<12, 12>(12 * i, 12 * i);
  for (const auto& [i, j] : pairs)
    if (!bodies[i].is_dirichlet() && !bodies[j].is_dirichlet() && i != j)
      s.H.add_coupling(i, j, s.dense.block<12, 12>(12 * i, 12 * j));
  return s;
}

}  // namespace affix::test
