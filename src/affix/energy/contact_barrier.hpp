#pragma once
// The IPC barrier on one body–body contact stencil (Li 2020 §4; Lan 2022 Eq. 10–11), in the stacked
// positions x ∈ R¹² of its four vertices (point–triangle: p, t₀, t₁, t₂; edge–edge: a₀, a₁, b₀, b₁).
//
// The distance functions give s = d² with ∇s, ∇²s. affix's barrier acts on the unsigned distance
// d = √s, like the ground barrier, so κ means the same everywhere and λ = −κ b'(d) is a force (N):
//   P(s) = κ b(√s),   P_s = κ b'(d) / (2d),   P_ss = κ (b''(d) − b'(d)/d) / (4d²),
//   ∇P = P_s ∇s,      ∇²P = P_ss ∇s ∇sᵀ + P_s ∇²s.
// Nearly parallel edges (Li 2020 §4.3): the edge–edge barrier is multiplied by the mollifier m(x) of
// x = ‖(a₁ − a₀) × (b₁ − b₀)‖², which vanishes for parallel edges where the edge–edge distance has no
// unique gradient:  ∇(mP) = m∇P + P∇m,  ∇²(mP) = m∇²P + P∇²m + ∇m∇Pᵀ + ∇P∇mᵀ.
// The Hessian is projected to PSD per stencil before it is mapped to the bodies' affine DOFs.
#include "affix/energy/stencil_derivatives.hpp"

namespace affix {

/// κ b(√s) and its derivatives from s = d² and its derivatives (zero when d ≥ d̂).
StencilDerivatives barrier_of_squared_distance(double s, const Vec12& grad_s, const Mat12& hess_s,
                                               double dhat, double kappa);

/// m·P for a mollified edge–edge stencil, given m and P with their derivatives.
StencilDerivatives mollified(const StencilDerivatives& barrier, const StencilDerivatives& mollifier);

}  // namespace affix
