#pragma once
// Contact of one body vertex with the ground half-space z ≥ h (the `ground` of DESIGN §3).
//
// Barrier stencil. The vertex at rest point x̄ is at x = J(x̄) q, so its distance to the ground
//   d(q) = x_z − h = q₂ + a₂·x̄ − h
// is linear in q with constant ∇d = e(x̄) = (0,0,1, 0,0,0, 0,0,0, x̄ᵀ). Hence
//   P = κ b(d),  ∇P = κ b'(d) e,  ∇²P = κ b''(d) e eᵀ  (PSD: b'' ≥ 0).
//
// Friction stencil. Tangential displacement over the step u(q) = T (x(q) − xⁿ), T = [e_x; e_y], so
// ∂u/∂q = Γ = T J(x̄) (2×12, constant), and D = μλ f₀(‖u‖) gives ∇D = Γᵀ∇ᵤD, ∇²D = Γᵀ∇²ᵤD Γ.
#include "affix/energy/friction.hpp"
#include "affix/math/types.hpp"

namespace affix {

struct GroundStencil {
  double value = 0.0;
  Vec12 gradient = Vec12::Zero();
  Mat12 hessian = Mat12::Zero();
};

/// Signed height of rest point x̄ above the ground under state q.
double ground_distance(const Vec12& q, const Vec3& x_bar, double ground_height);

/// κ b(d) and its derivatives in q (zero when d ≥ d̂).
GroundStencil ground_barrier(const Vec12& q, const Vec3& x_bar, double ground_height, double dhat,
                             double kappa);

/// u: the in-plane displacement of rest point x̄ under q from x_start.
Vec2 ground_slip(const Vec12& q, const Vec3& x_bar, const Vec3& x_start);

/// μλ f₀(‖u‖) and its derivatives in q, u the in-plane displacement from x_start (world position of
/// the vertex at the start of the step). eps = ε_v·h. `form`: the Hessian's (friction.hpp).
GroundStencil ground_friction(const Vec12& q, const Vec3& x_bar, const Vec3& x_start,
                              double mu_lambda, double eps, FrictionHessian form = FrictionHessian::exact);

}  // namespace affix
