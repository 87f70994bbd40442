#pragma once
// Added inertia (issue 15, hostile pass 3, D4 and D6; not in the paper): the rotational inertia that puts
// a light body's turn against its joints' tension back on the stability boundary of Eq. 10,
// h²k/(m + Δm) = 4α, without taking energy. Where the bodies that soft rows hold (a cable's links) get no
// inertial damping B ("auto", "constraint_damping": stability_damping.hpp, "Which bodies"), the cable's
// transverse modes — its links turning against the tension, the string's modes between the anchor and a
// heavy load — lie in the rigid rows' span, which constraint damping cannot reach (§5.4), and at large h
// they are past Eq. 9's bound: a 100-link cable of 0.02 kg links under 50 kg has h·ω ≈ 2.2 for its lowest
// at h = 0.1, and the step, its halving turned off, grew its kinetic energy 2–4× a step and tore at step 13
// (the 30-link cable of test_compliant_cable_pendulum.cpp). Halving held it at 87–1,190 halvings per run.
//
// B of Eq. 13 (M̃ = M + hB, momenta M v) damps each turn at b ≈ hk/2: the swing, which turns every link at
// the pendulum's rate, goes with it (99.9 % in 20 s). Here the same augmented inertia carries its own
// momentum, (M + ΔM) v₊ = (M + ΔM) v + h f: a torque-free body keeps ω, and a spring k on m steps as
// symplectic Euler on the mass m + Δm, whose discrete energy it conserves — a mode past the bound is slowed
// to it rather than damped (mass scaling, as explicit codes raise their stable step). Measured with halving
// off (a local build): the 30-link cable at h = 0.1 holds for 12 s, 97.5 % of its peak kinetic energy kept,
// period 3.507 s against the closed form's 3.490; the 100-link one 99.7 %, 4.531 s against 4.524 s.
// With halving on, the projection on M still stalls on such cables and halves (62 halvings in 120 steps of
// the 30-link cable; with ΔI in its metric none, but the Fig. 8 cable then rose 71 J above its start at
// h = 0.1: not kept).
//
// k is the column norm of the rotational block of K̃ alone, ∂τ/∂θ (N·m/rad), not Eq. 12's norm of the whole
// column: a cable joint's rows turn with its body, so the column also holds force entries ∂f/∂θ ~ λ (N/rad),
// 2/ℓ times the torque entries λℓ/2, which made ΔI 20× too large and lengthened the 30-link swing by 11 %.
#include <vector>

#include "affix/solvers/compliant/augmented_mass.hpp"

namespace affix {

/// Δm = (h²k − 4αm)/(4α) when h²k/m > 4α (Eq. 10), else 0: the inertia that puts h²k/(m + Δm) at 4α.
double added_inertia(double m, double k, double h, double alpha);

/// Per body (on the unknowns) into `out` (resized, reused from step to step): the column norms of the
/// rotational blocks ∂τ/∂θ of the summed K̃, the body's own and those coupling it to the other body of each
/// joint (header).
void rotational_stiffness(const std::vector<PlacedStiffness>& K, int bodies, std::vector<Vec3>& out);

}  // namespace affix
