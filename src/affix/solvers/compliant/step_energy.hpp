#pragma once
// The mechanical energy of the compliant solver's bodies and springs, for the curvature term's energy
// guard (compliant_simulator.cpp, row_curvature.hpp) and stats.csv.
//
//   E = Σ ½ m |v|² + ½ ωᵀ I ω − m g·c + Σ_soft ½ φ²/C
//
// over the moving bodies and the soft joint rows (compliance above kSoftCompliance: a cable's bending and
// torsion, a joint given a low `stiffness`): springs whose stretch φ is state. Their energy is ½φ²/C of
// the stretch, not ½Cλ² of the multiplier, because a soft row's λ = −φ₊/C − bφ̇₊ also carries its damping
// force (Eq. 14): under constraint-space damping at h = 0.1 the bending rows' b′ reaches 10 N·m·s/rad, and
// ½Cλ² then reads tens of kJ that no spring holds. Stiff rows (C ≤ 10⁻⁴) are left out: the projection
// keeps their stretch at −Cλ, whose ½Cλ² is micro-joules, and before it their φ is drift, not a spring.
#include <vector>

#include "affix/solvers/rigid/rigid_body.hpp"

namespace affix {

/// E at the current state; `phi` and `compliance` the first `rows` joint rows.
double mechanical_energy(const std::vector<RigidBody>& bodies, const std::vector<int>& moving, const Vec3& gravity,
                         const VecX& phi, const std::vector<double>& compliance, int rows);

/// E after the moving bodies drift over h at the velocities v (6 per unknown: v, ω) holding their
/// angular momentum, as the step moves them; `phi_next` the joint rows there.
double mechanical_energy_after(const std::vector<RigidBody>& bodies, const std::vector<int>& moving, const VecX& v,
                               double h, const Vec3& gravity, const VecX& phi_next,
                               const std::vector<double>& compliance, int rows);

/// ½h Σ m g·v over the moving bodies at the velocities v (6 per unknown), or at their own when v is null.
/// The step is symplectic Euler under gravity, v₊ = v + hg, c₊ = c + hv₊, and its E changes by
///   E₊ − E = ½m(v₊ − v)·(v₊ + v) − m g·(c₊ − c) = ½hm g·(v₊ + v) − hm g·v₊ = ½hm g·(v − v₊):
/// what it keeps is the shadow energy E + ½hm g·v, while E alone swings by ±½hm g·|v| over a swing
/// (README, "Energy read at a step's end at large h"). The energy guard compares shadow energies.
double gravity_shadow(const std::vector<RigidBody>& bodies, const std::vector<int>& moving, const VecX* v,
                      const Vec3& gravity, double h);

}  // namespace affix
