#pragma once
// Adaptive barrier stiffness κ (Li 2020, IPC §4.3 and supplement), restated for affix's convention
// that the barrier is a physical potential inside βh²·P:
//
// κ_min. IPC asks the barrier's Hessian at a vanishing distance d₀ = 1e-8·L (L the scene's bounding
// box diagonal) to reach 1e11 × the average mass, with its default d̂ = 1e-3·L. affix's d̂ is absolute,
// so we take IPC's rule at the scene size where the two agree, L = 1000·d̂: d₀ = 1e-5·d̂. (Using the
// real scene size would make contact stiffer the further apart the bodies are.) In our incremental
// potential that Hessian is βh²·κ·b''(d₀), hence
//   κ_min = 1e11 · m̄ / (βh² · b''(d₀, d̂)) ≈ 10 m̄ / (βh²)   (b''(d₀) ≈ d̂²/d₀²),   κ_max = 100 κ_min,
// with m̄ the average mass of the dynamic bodies.
// κ at the first step balances the barrier's pull against the rest of the potential at q⁰:
//   κ = clamp(−∇B·∇E / ‖∇B‖², κ_min, κ_max)   (B = βh² Σ b with κ = 1; κ_min when nothing is near),
// and is carried from step to step after that.
// During the Newton solve κ doubles (up to κ_max) while the closest distance keeps shrinking below
// d_ε = 1e-6·d̂ (IPC's 1e-9·L at L = 1000·d̂): the barrier is then losing against the other forces.
#include "affix/math/types.hpp"

namespace affix {

struct BarrierStiffnessBounds {
  double min = 0.0;
  double max = 0.0;
};

BarrierStiffnessBounds barrier_stiffness_bounds(double average_mass, double beta_h2, double dhat);

double initial_barrier_stiffness(const VecX& barrier_gradient, const VecX& rest_gradient,
                                 const BarrierStiffnessBounds& bounds);

/// The doubled κ when the barrier has trouble keeping contacts apart, else κ unchanged.
double updated_barrier_stiffness(double kappa, double previous_min_distance, double min_distance,
                                 double dhat, const BarrierStiffnessBounds& bounds);

}  // namespace affix
