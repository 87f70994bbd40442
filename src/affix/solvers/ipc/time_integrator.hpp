#pragma once
// Optimization time integration (Chen 2022 §3.1): each step minimises
//   ½ ‖q − q̃‖²_M + β h² Σᵢ Pᵢ(q)
// where q̃ and β depend on the integrator.
//   implicit Euler (Eq. 2): q̃ = qⁿ + h q̇ⁿ,  β = 1,  q̇ⁿ⁺¹ = (qⁿ⁺¹ − qⁿ)/h
//   BDF-2 (Eq. 3):          q̃ = (4qⁿ − qⁿ⁻¹)/3 + (2h/9)(4q̇ⁿ − q̇ⁿ⁻¹),  β = 4/9,
//                           q̇ⁿ⁺¹ = (3qⁿ⁺¹ − 4qⁿ + qⁿ⁻¹)/(2h)
// BDF-2 needs one step of history; its first step is an implicit Euler step.
#include "affix/math/types.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// What an integrator remembers of one body.
struct BodyHistory {
  Vec12 q = Vec12::Zero();          ///< qⁿ
  Vec12 qdot = Vec12::Zero();       ///< q̇ⁿ
  Vec12 q_prev = Vec12::Zero();     ///< qⁿ⁻¹
  Vec12 qdot_prev = Vec12::Zero();  ///< q̇ⁿ⁻¹
  bool has_previous = false;
};

struct Prediction {
  Vec12 q_tilde;
  double beta = 1.0;
};

Prediction predict(Integrator integrator, const BodyHistory& history, double h);

/// The integrator's velocity as an affine function of the unknown: q̇ⁿ⁺¹ = γ (qⁿ⁺¹ − offset).
/// Implicit Euler: γ = 1/h, offset = qⁿ; BDF-2: γ = 3/(2h), offset = (4qⁿ − qⁿ⁻¹)/3.
struct VelocityMap {
  double gamma = 0.0;
  Vec12 offset = Vec12::Zero();
};
VelocityMap velocity_map(Integrator integrator, const BodyHistory& history, double h);

/// Shifts the history to step n+1 given the solved qⁿ⁺¹.
void advance(Integrator integrator, BodyHistory& history, const Vec12& q_next, double h);

}  // namespace affix
