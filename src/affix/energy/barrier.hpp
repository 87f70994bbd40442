#pragma once
// The smoothly clamped log barrier of IPC (Li 2020; Lan 2022 Eq. 11), on an unsigned distance d:
//   b(d) = −(d − d̂)² ln(d / d̂)   for 0 < d < d̂,   0 for d ≥ d̂,
//   b'(d)  = −2(d − d̂) ln(d/d̂) − (d − d̂)²/d,
//   b''(d) = −2 ln(d/d̂) − 4(d − d̂)/d + (d − d̂)²/d².
// b is C² at d̂ and b, −b', b'' are all ≥ 0 on (0, d̂), so κ·b''·∇d∇dᵀ is PSD when d is linear in q.
// affix uses the barrier as a physical potential: κ·b has units of energy, and the contact force on a
// stencil is λ = −κ b'(d) (N). It enters the incremental potential scaled by βh² like every potential.
namespace affix {

double barrier(double d, double dhat);
double barrier_first_derivative(double d, double dhat);
double barrier_second_derivative(double d, double dhat);

}  // namespace affix
