#pragma once
// The rows' curvature over a step (not in Andrews 2017; what its Fig. 8 energy needs here).
//
// Eq. 3 asks each row for φ + h J v₊ = 0 (or a spring's −Cλ): φ linearised at the start of the step.
// The bodies then move on curved paths (R ← exp(hω)R), so the row lands at
//   φ₊ = φ + h J v₊ + d,   d = ½ h² v₊ᵀ ∇²φ v₊ + O(h³),
// a drift that the next step removes by −φ/h (Eq. 2). On a pendulum of length L swinging at speed u
// that costs energy every step: d = h²u²/(2L) outward, so the next step starts with an outward radial
// velocity uδ (δ = hu/L, the turn of the rod in a step) and leaves with −uδ/2, removing ¾ of
// ½m(uδ)² — a fraction ¾δ² of the kinetic energy per step, O(h²). Andrews Fig. 8's load (a 5.5 m
// pendulum from 45°, h = 0.01) loses 11 % of its peak kinetic energy over 40 s this way with no
// stability damping at all (0.1 % at h = 0.001, 5.7 % at h = 0.005: the h² law).
//
// With d predicted and added, φ + h J v₊ + d = 0: the step lands on the row to second order, the
// outward radial velocity uδ at the next start is reversed to −uδ rather than cut to −uδ/2, and the
// kinetic energy is kept (the reversal is what a symplectic position-level method, SHAKE, does).
// d is predicted at the start of the step from the current velocities u (v₊ differs by h·accel,
// which changes d by O(h³)):
//   d = φ(x ⊕ h u) − φ(x) − h J u,
// x ⊕ h u the integrator's own drift (c + hv, exp(hω)R) and a prescribed body's pose at t + h — the
// rows' exact second-order change on the integrator's path, with no second derivative to write.
// The row's equation becomes J v₊ + S μ = −Γ(φ + d)/h, the same Γ (Eq. 14–17: λ = −φ₊/C − bφ̇₊ with
// φ₊ = φ + hJv₊ + d).
//
// Energy guard (compliant_simulator.cpp, made_energy). The prediction holds while v₊ stays near u. At
// large steps it does not: on the Fig. 8 cable at h = 0.1 the light links whip when the load passes its
// apex (|ω| 20–60 rad/s, turns of 2–6 rad in a step), d reaches metres, and −Γd/h then drives velocities
// the step never follows: 48 kJ gained in 4 s (the load's swing holds 1.5 kJ) until a link broke away.
// Landing on the rows is also what makes the step symplectic, and symplectic steps do not damp the
// modes a step cannot resolve (the paper's first-order rows lose ¾δ² of the kinetic energy per step and
// were stable there). Iterating d at v₊ (4 or 8 times) and fading it by the step's turn were tried and
// were not stable at 0.1. So each substep checks what it ends with: the mechanical energy E₊ at v₊
// (kinetic, gravity, soft rows' ½φ₊²/C with φ₊ = φ + hJv₊ + d(v₊); step_energy.hpp) against E at its
// start plus the scene forces' work. A gain larger than 10⁻³ of the kinetic energy is not the prediction's
// O(h³) truncation (on the Fig. 8 cable at h = 0.01 that stays below 2·10⁻⁴, and averages out) and the
// substep is solved again without d — the paper's rows, by the same factorisation, one more solve.
// A moving prescribed body's work, −μ·J_d v_d, and the drives', μ·J_s v₊, count with the scene forces'.
// The allowance is lent only below the energy line (the start plus all that work so far), so that gains
// inside it do not accumulate (compliant_simulator.hpp, energy_line_). Also taken back: a step landing further off its stiff rows than the paper's would
// (|φ₊| above |d(v₊)|), whose gap the next step's −φ/h would turn into velocity; and in a halved
// substep whose paper step still makes energy, the stiff rows close their gap at the whole step's rate.
#include <utility>
#include <vector>

#include "affix/solvers/compliant/reduced_system.hpp"
#include "affix/solvers/rigid/rigid_body.hpp"

namespace affix {

/// d of each joint row (header) into `out` (rows of `joints`, at J.slots[j].offset): `now` and `next`
/// the poses of every model body at the start and the end of the step (next: the drift at the current
/// velocities, or a prescribed body's own pose), `velocity` each model body's (v, ω) over the step.
void row_curvature(const std::vector<RigidJoint>& joints, const ConstraintJacobian& J, const VecX& phi,
                   const std::vector<RigidPose>& next, const std::vector<Vec6>& velocity, double h, VecX& out);

}  // namespace affix
