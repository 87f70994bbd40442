#pragma once
// Lagged, smoothed Coulomb friction of IPC (Li 2020 §5; Lan 2022 Eq. 12), on one contact's tangential
// displacement u ∈ R² over the step:
//   D(u) = μ λ f₀(‖u‖),
// λ the normal force (N) and the tangent basis frozen at the last lag update. With ε = ε_v·h, the
// mollifier f₁ (the fraction of μλ transmitted) and its integral f₀ are
//   f₁(y) = 2y/ε − y²/ε²  (y < ε),  1  (y ≥ ε);      f₀(y) = y³·(−1/(3ε²)) + y²/ε + ε/3  (y < ε),  y.
// Force −∇D = −μλ f₁(y) û: static friction below ε_v, Coulomb sliding above. The Hessian
//   ∇²D = μλ [ f₁'(y) ûûᵀ + f₁(y)/y (I − ûûᵀ) ]
// has eigenvalues f₁' ≥ 0 and f₁/y ≥ 0, so it is PSD; f₁(y)/y → 2/ε as y → 0, evaluated in closed form.
//
// The Newton solve uses a majorizer instead (FrictionHessian::majorizer): μλ f₁(y)/y · I. f₀(‖u‖) is a
// concave function of s = ‖u‖² (df₀/ds = f₁(y)/(2y), which never increases with y), so its tangent in s
// bounds it from above:  D(u) ≤ D(u₀) + ∇D(u₀)·(u − u₀) + ½ μλ f₁(y₀)/y₀ ‖u − u₀‖²  for every u.
// The exact Hessian has no curvature along a sliding contact's slip (f₁' = 0 for y ≥ ε), so a Newton
// step that brings the contact back towards sticking overshoots u = 0, where the energy's kink turns it
// back up, and the line search halves it again and again (issue 12: 20–60 iterations per step on a
// landed stack, three to four energy evaluations each). The majorizer's step lands on u = 0 when
// friction alone acts, never increases D beyond its model, and equals the exact Hessian at y = 0 (2μλ/ε
// both), so sticking contacts keep Newton's convergence. It is the iteratively reweighted least-squares
// (lagged diffusivity) treatment of the norm ‖u‖.
//
// The majorizer alone makes a contact that keeps sliding converge linearly: along its slip it adds a
// curvature μλ/y that D lacks, so each Newton step moves the slip by a fraction m/(m + βh²μλ/y) of the
// way (m the inertia behind it) — on the ragdoll's longest step a forearm on the ground moved 0.05 mm
// an iteration for 70 iterations, the energy falling 1.5–1.8× the model's prediction each time, two
// thirds of that excess friction's.
// SlipHistory chooses per contact and Newton iterate (friction_newton_form): the exact Hessian where it
// is safe — in the smoothed zone y < ε, where D is C² and its Hessian Lipschitz, and for a contact
// that slid (y ≥ ε) at the last iterate too, in the same direction, keeping at least half of that
// slip (the majorizer's slow regime) — so a sliding contact reaches its Coulomb slip in one step; the
// majorizer for a contact that starts to slide (its direction is not known yet), for one whose slip
// more than halved (converging fast, or coming to rest, where the exact step would overshoot u = 0:
// on the light wrecking ball without this test 1.69 energy evaluations per iteration, with it 1.48)
// and for one whose slip has reversed during this solve.
#include "affix/math/types.hpp"

namespace affix {

double friction_f0(double y, double eps);
double friction_f1(double y, double eps);

struct FrictionStencil {
  double value = 0.0;
  Vec2 gradient = Vec2::Zero();
  Mat2 hessian = Mat2::Zero();
};

/// What FrictionStencil::hessian holds: the exact Hessian, or the isotropic majorizer of the Newton solve.
enum class FrictionHessian { exact, majorizer };

/// One contact's slips at the earlier Newton iterates of a lagged solve (the state of the rule above).
struct SlipHistory {
  Vec2 last = Vec2::Zero();  ///< u at the last iterate the Hessian was formed at
  bool seen = false;         ///< `last` holds a slip
  bool reversed = false;     ///< u turned against `last` at some iterate of this solve
};

/// The Hessian form the Newton system takes at slip u (rule in the header), and u recorded in `history`.
FrictionHessian friction_newton_form(const Vec2& u, double eps, SlipHistory& history);

/// D(u) = mu_lambda · f₀(‖u‖) with its gradient and a PSD Hessian in u (the exact one by default).
FrictionStencil friction_potential(const Vec2& u, double mu_lambda, double eps,
                                   FrictionHessian form = FrictionHessian::exact);

}  // namespace affix
