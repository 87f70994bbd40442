#pragma once
// Nonlinear equality joints as stiff penalties (Chen 2022 §4.2, Eq. 10): P(x) = ½ k c(x)², in the
// stacked world positions x = (x₀, x₁, x₂, x₃) ∈ R¹² of the stencil's points (unused points: zero
// rows and columns). Every c is a length, so k is in N/m for every kind:
//   distance (Eq. 11): c = ‖x₀ − x₁‖ − l                                   points x₀, x₁
//   line     (Eq. 12): c = ‖(x₀ − x₁) × (x₂ − x₁)‖ / L                     points x₀, x₁, x₂
//                      (x₀ stays on the line x₁x₂; L = ‖x₂ − x₁‖ at rest, so c is x₀'s distance to it)
//   plane:             c = (x₀ − x₁) · ((x₂ − x₁) × (x₃ − x₁)) / L²        points x₀ … x₃
//                      (x₀ stays on the plane x₁x₂x₃; x₂ − x₁ ⟂ x₃ − x₁, both of length L at rest)
// For line and plane, ½kc² is a polynomial, smooth everywhere; distance is smooth for x₀ ≠ x₁.
#include "affix/energy/stencil_derivatives.hpp"

namespace affix {

enum class PenaltyKind { distance, line, plane };

/// c(x): the constraint value, also the joint's error (m). `length` is l (distance) or L (line, plane).
double penalty_constraint(PenaltyKind kind, const Vec12& x, double length);

/// ½ k c² with gradient and Hessian in x (not projected to PSD).
StencilDerivatives joint_penalty(PenaltyKind kind, const Vec12& x, double length, double stiffness);

}  // namespace affix
