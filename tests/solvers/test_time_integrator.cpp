// Optimization time integration (time_integrator.hpp) against the textbook formulas of Chen 2022 §3.1:
//   implicit Euler (Eq. 2): q̃ = qⁿ + h q̇ⁿ, β = 1, q̇ⁿ⁺¹ = (qⁿ⁺¹ − qⁿ)/h;
//   BDF-2 (Eq. 3): q̃ = (4qⁿ − qⁿ⁻¹)/3 + (2h/9)(4q̇ⁿ − q̇ⁿ⁻¹), β = 4/9, q̇ⁿ⁺¹ = (3qⁿ⁺¹ − 4qⁿ + qⁿ⁻¹)/(2h);
// BDF-2's first step (no history) is an implicit Euler step. Under a constant load f = M a the step's
// minimiser of ½‖q − q̃‖²_M − βh² fᵀq (Eq. 1) is q̃ + βh² a exactly, so a uniformly accelerated body
// can be advanced without a Newton solve: BDF-2, exact for quadratics, reproduces the exact velocity
// v₀ + a t at every step, and with an exact history the exact position; implicit Euler's velocity is
// exact too but its position runs ahead by ½ n h² a. And the semi-implicit Rayleigh damping
// (rayleigh_damping.hpp, Chen 2022 §5.1 Eq. 20–22): R = (γ/2) eᵀ K e, e = q − q_off, with
// q̇ = γ(q − q_off) the integrator's own velocity map.
#include <gtest/gtest.h>

#include <random>

#include "affix/solvers/ipc/rayleigh_damping.hpp"
#include "affix/solvers/ipc/time_integrator.hpp"
#include "support/finite_differences.hpp"
#include "support/random_rigid.hpp"

namespace affix {
namespace {

BodyHistory random_history(std::mt19937& rng, bool has_previous) {
  BodyHistory h;
  h.q = test::random_vector<12>(rng);
  h.qdot = test::random_vector<12>(rng);
  h.q_prev = test::random_vector<12>(rng);
  h.qdot_prev = test::random_vector<12>(rng);
  h.has_previous = has_previous;
  return h;
}

constexpr double kTight = 1e-14;

TEST(TimeIntegrator, ImplicitEulerPredictionVelocityMapAndUpdateAreEquation2) {
  std::mt19937 rng(1);
  const double h = 0.01;
  for (const bool has_previous : {false, true}) {  // Euler ignores any history
    const BodyHistory history = random_history(rng, has_previous);
    const Prediction p = predict(Integrator::implicit_euler, history, h);
    EXPECT_TRUE(p.q_tilde.isApprox(history.q + h * history.qdot, kTight));
    EXPECT_EQ(p.beta, 1.0);
    const VelocityMap v = velocity_map(Integrator::implicit_euler, history, h);
    EXPECT_DOUBLE_EQ(v.gamma, 1.0 / h);
    EXPECT_TRUE(v.offset.isApprox(history.q, kTight));

    const Vec12 q_next = test::random_vector<12>(rng);
    BodyHistory next = history;
    advance(Integrator::implicit_euler, next, q_next, h);
    const Vec12 qdot = (q_next - history.q) / h;
    EXPECT_TRUE(next.qdot.isApprox(qdot, 1e-12));
    EXPECT_TRUE(next.qdot.isApprox(v.gamma * (q_next - v.offset), 1e-12)) << "the velocity map is the update";
    EXPECT_EQ(next.q, q_next);
    EXPECT_EQ(next.q_prev, history.q);
    EXPECT_EQ(next.qdot_prev, history.qdot);
    EXPECT_TRUE(next.has_previous);
  }
}

TEST(TimeIntegrator, Bdf2PredictionVelocityMapAndUpdateAreEquation3) {
  std::mt19937 rng(2);
  const double h = 0.004;
  const BodyHistory history = random_history(rng, true);
  const Prediction p = predict(Integrator::bdf2, history, h);
  const Vec12 q_tilde =
      (4.0 * history.q - history.q_prev + (2.0 * h / 3.0) * (4.0 * history.qdot - history.qdot_prev)) / 3.0;
  EXPECT_TRUE(p.q_tilde.isApprox(q_tilde, kTight));
  EXPECT_DOUBLE_EQ(p.beta, 4.0 / 9.0);
  const VelocityMap v = velocity_map(Integrator::bdf2, history, h);
  EXPECT_DOUBLE_EQ(v.gamma, 3.0 / (2.0 * h));
  EXPECT_TRUE(v.offset.isApprox((4.0 * history.q - history.q_prev) / 3.0, kTight));

  const Vec12 q_next = test::random_vector<12>(rng);
  BodyHistory next = history;
  advance(Integrator::bdf2, next, q_next, h);
  EXPECT_TRUE(next.qdot.isApprox((3.0 * q_next - 4.0 * history.q + history.q_prev) / (2.0 * h), 1e-12));
  EXPECT_TRUE(next.qdot.isApprox(v.gamma * (q_next - v.offset), 1e-12)) << "the velocity map is the update";
  EXPECT_EQ(next.q, q_next);
  EXPECT_EQ(next.q_prev, history.q);
  EXPECT_EQ(next.qdot_prev, history.qdot);
}

TEST(TimeIntegrator, Bdf2FirstStepIsAnImplicitEulerStep) {
  std::mt19937 rng(3);
  const double h = 0.01;
  const BodyHistory fresh = random_history(rng, false);  // q_prev, qdot_prev are meaningless here
  const Prediction bdf = predict(Integrator::bdf2, fresh, h), euler = predict(Integrator::implicit_euler, fresh, h);
  EXPECT_EQ(bdf.q_tilde, euler.q_tilde);
  EXPECT_EQ(bdf.beta, 1.0);
  const VelocityMap vb = velocity_map(Integrator::bdf2, fresh, h), ve = velocity_map(Integrator::implicit_euler, fresh, h);
  EXPECT_EQ(vb.gamma, ve.gamma);
  EXPECT_EQ(vb.offset, ve.offset);
  const Vec12 q_next = test::random_vector<12>(rng);
  BodyHistory b = fresh, e = fresh;
  advance(Integrator::bdf2, b, q_next, h);
  advance(Integrator::implicit_euler, e, q_next, h);
  EXPECT_EQ(b.qdot, e.qdot);
  EXPECT_TRUE(b.has_previous);
  // The second step is a BDF-2 step.
  EXPECT_DOUBLE_EQ(predict(Integrator::bdf2, b, h).beta, 4.0 / 9.0);
}

/// One step of a body under constant acceleration a without a solve: the minimiser q̃ + βh² a.
void free_step(Integrator integrator, BodyHistory& history, const Vec12& a, double h) {
  const Prediction p = predict(integrator, history, h);
  advance(integrator, history, p.q_tilde + p.beta * h * h * a, h);
}

TEST(TimeIntegrator, Bdf2ReproducesTheExactVelocityOfUniformAcceleration) {
  std::mt19937 rng(4);
  const double h = 0.01;
  const Vec12 q0 = test::random_vector<12>(rng), v0 = test::random_vector<12>(rng), a = 10.0 * test::random_vector<12>(rng);
  const auto exact_q = [&](double t) { return Vec12(q0 + t * v0 + 0.5 * t * t * a); };
  const auto exact_v = [&](double t) { return Vec12(v0 + t * a); };

  // From rest history (the first step is implicit Euler): the velocity is exact at every step; the
  // position keeps the Euler step's ½h²a lead, carried by BDF-2 as e_{n+1} = (4e_n − e_{n−1})/3 → ¾h²a.
  BodyHistory history;
  history.q = q0;
  history.qdot = v0;
  Vec12 e_prev = Vec12::Zero(), e = Vec12::Zero();
  for (int n = 1; n <= 200; ++n) {
    free_step(Integrator::bdf2, history, a, h);
    const double t = n * h;
    EXPECT_LT((history.qdot - exact_v(t)).norm(), 1e-10 * exact_v(t).norm()) << "step " << n;
    const Vec12 e_next = n == 1 ? Vec12(0.5 * h * h * a) : Vec12((4.0 * e - e_prev) / 3.0);
    e_prev = e;
    e = e_next;
    EXPECT_LT((history.q - exact_q(t) - e).norm(), 1e-10 * exact_q(t).norm()) << "step " << n;
  }
  EXPECT_LT((e - 0.75 * h * h * a).norm(), 1e-12 * a.norm());

  // With an exact history (qⁿ⁻¹, q̇ⁿ⁻¹ on the trajectory) the position is exact too.
  history.q_prev = exact_q(0.0);
  history.qdot_prev = exact_v(0.0);
  history.q = exact_q(h);
  history.qdot = exact_v(h);
  history.has_previous = true;
  for (int n = 2; n <= 100; ++n) {
    free_step(Integrator::bdf2, history, a, h);
    EXPECT_LT((history.q - exact_q(n * h)).norm(), 1e-11 * exact_q(n * h).norm()) << "step " << n;
    EXPECT_LT((history.qdot - exact_v(n * h)).norm(), 1e-10 * exact_v(n * h).norm()) << "step " << n;
  }
}

TEST(TimeIntegrator, ImplicitEulerUnderUniformAccelerationHasTheExactVelocityAndALeadingPosition) {
  std::mt19937 rng(5);
  const double h = 0.02;
  const Vec12 q0 = test::random_vector<12>(rng), v0 = test::random_vector<12>(rng), a = 10.0 * test::random_vector<12>(rng);
  BodyHistory history;
  history.q = q0;
  history.qdot = v0;
  for (int n = 1; n <= 100; ++n) {
    free_step(Integrator::implicit_euler, history, a, h);
    const double t = n * h;
    EXPECT_LT((history.qdot - (v0 + t * a)).norm(), 1e-10 * (v0 + t * a).norm()) << "step " << n;
    // qₙ = q₀ + n h v₀ + ½ n(n+1) h² a: the exact ½t²a plus ½ n h² a.
    const Vec12 expected = q0 + t * v0 + 0.5 * n * (n + 1) * h * h * a;
    EXPECT_LT((history.q - expected).norm(), 1e-11 * expected.norm()) << "step " << n;
  }
}

// ---- Rayleigh damping ----------------------------------------------------------------------------

Mat12 random_psd(std::mt19937& rng) {
  Mat12 B;
  for (int c = 0; c < 12; ++c) B.col(c) = test::random_vector<12>(rng);
  return B * B.transpose() / 12.0;
}

/// K on three bodies: PSD diagonal blocks on 0 and 2, nothing on 1, a coupling (2, 0).
struct DampingSetup {
  DofLayout layout = DofLayout::uniform(3, kAffineDofs);
  BlockHessian K;
  MatX dense = MatX::Zero(36, 36);
  std::vector<Vec12> offset;
  double gamma = 150.0;
};

DampingSetup damping_setup(std::mt19937& rng) {
  DampingSetup s;
  s.K.reset(3);
  s.K.diagonal(0) = random_psd(rng);
  s.K.diagonal(2) = random_psd(rng);
  Mat12 C;
  for (int c = 0; c < 12; ++c) C.col(c) = 0.1 * test::random_vector<12>(rng);
  s.K.add_coupling(2, 0, C);
  s.dense.block<12, 12>(0, 0) = s.K.diagonal(0);
  s.dense.block<12, 12>(24, 24) = s.K.diagonal(2);
  s.dense.block<12, 12>(24, 0) = C;
  s.dense.block<12, 12>(0, 24) = C.transpose();
  for (int i = 0; i < 3; ++i) s.offset.push_back(test::random_vector<12>(rng));
  return s;
}

TEST(RayleighDamping, EnergyGradientAndHessianAreTheQuadraticOfEquations20To22) {
  std::mt19937 rng(6);
  const DampingSetup s = damping_setup(rng);
  const RayleighDamping R{s.K, s.gamma, s.offset, s.layout};
  ASSERT_FALSE(R.empty());
  const double scale = 0.37;
  VecX q(36), e(36);
  for (int i = 0; i < 3; ++i) q.segment<12>(12 * i) = test::random_vector<12>(rng);
  for (int i = 0; i < 3; ++i) e.segment<12>(12 * i) = q.segment<12>(12 * i) - s.offset[i];

  const auto energy = [&](const VecX& x) {
    std::vector<double> per_body(3, 0.0);
    R.add_energies(x, scale, std::vector<char>(3, 1), per_body);
    return per_body[0] + per_body[1] + per_body[2];
  };
  EXPECT_NEAR(energy(q), 0.5 * scale * s.gamma * e.dot(s.dense * e), 1e-12 * std::abs(energy(q)));

  VecX gradient = VecX::Zero(36);
  BlockHessian H;
  H.reset(3);
  R.add_derivatives(q, scale, gradient, H);
  const VecX expected_gradient = scale * s.gamma * s.dense * e;  // Eq. 21: k_d H v with v = γ e
  ASSERT_GT(expected_gradient.norm(), 0.0);
  EXPECT_TRUE(test::near_relative(gradient, expected_gradient, 1e-12));
  EXPECT_TRUE(test::near_relative(gradient, test::fd_gradient(energy, q, 1e-6), 1e-7));
  MatX dense_H = MatX::Zero(36, 36);
  for (int i = 0; i < 3; ++i) dense_H.block<12, 12>(12 * i, 12 * i) = H.diagonal(i);
  for (const auto& [key, block] : H.couplings()) {
    dense_H.block<12, 12>(12 * key.second, 12 * key.first) = block;
    dense_H.block<12, 12>(12 * key.first, 12 * key.second) = block.transpose();
  }
  EXPECT_TRUE(test::near_relative(dense_H, scale * s.gamma * s.dense, 1e-12));  // Eq. 22
}

TEST(RayleighDamping, ItsForceIsKdTimesTheBarrierHessianTimesTheIntegratorsVelocity) {
  // With q_off and γ from the integrator's velocity map, ∇R = K q̇ⁿ⁺¹ for the velocity that advance()
  // will record: the damping force of Eq. 21.
  std::mt19937 rng(7);
  DampingSetup s = damping_setup(rng);
  const double h = 0.01;
  std::vector<BodyHistory> histories;
  s.offset.clear();
  for (int i = 0; i < 3; ++i) {
    histories.push_back(random_history(rng, true));
    const VelocityMap v = velocity_map(Integrator::bdf2, histories[i], h);
    s.gamma = v.gamma;
    s.offset.push_back(v.offset);
  }
  const RayleighDamping R{s.K, s.gamma, s.offset, s.layout};
  VecX q(36), qdot(36);
  for (int i = 0; i < 3; ++i) {
    q.segment<12>(12 * i) = test::random_vector<12>(rng);
    BodyHistory next = histories[i];
    advance(Integrator::bdf2, next, q.segment<12>(12 * i), h);
    qdot.segment<12>(12 * i) = next.qdot;
  }
  VecX gradient = VecX::Zero(36);
  BlockHessian H;
  H.reset(3);
  R.add_derivatives(q, 1.0, gradient, H);
  EXPECT_TRUE(test::near_relative(gradient, s.dense * qdot, 1e-10));
}

TEST(RayleighDamping, EnergiesGoToTheIncludedBodies) {
  std::mt19937 rng(8);
  const DampingSetup s = damping_setup(rng);
  const RayleighDamping R{s.K, s.gamma, s.offset, s.layout};
  VecX q(36);
  for (int i = 0; i < 3; ++i) q.segment<12>(12 * i) = test::random_vector<12>(rng);
  const auto e = [&](int i) { return Vec12(q.segment<12>(12 * i) - s.offset[i]); };
  const double own0 = 0.5 * s.gamma * e(0).dot(s.K.diagonal(0) * e(0));
  const double own2 = 0.5 * s.gamma * e(2).dot(s.K.diagonal(2) * e(2));
  const double coupling = s.gamma * e(2).dot(s.K.couplings().begin()->second * e(0));
  std::vector<double> per_body(3, 0.0);
  R.add_energies(q, 1.0, {0, 1, 1}, per_body);  // body 0 excluded: the coupling goes to body 2
  EXPECT_DOUBLE_EQ(per_body[0], 0.0);
  EXPECT_DOUBLE_EQ(per_body[1], 0.0);
  EXPECT_NEAR(per_body[2], own2 + coupling, 1e-12 * std::abs(own2 + coupling));
  per_body.assign(3, 0.0);
  R.add_energies(q, 1.0, {1, 1, 0}, per_body);  // body 2 excluded: the coupling goes to body 0
  EXPECT_NEAR(per_body[0], own0 + coupling, 1e-12 * std::abs(own0 + coupling));
  EXPECT_DOUBLE_EQ(per_body[2], 0.0);
}

}  // namespace
}  // namespace affix
