#pragma once
// Divergence seen from the energy (compliant solver): a step that ends with more mechanical energy than
// the energy line allows has made energy, and a run that goes on from there reports physics it is not
// doing. The energy guard (compliant_simulator.cpp, made_energy) only takes back the curvature term; what
// the M − h²K̃ step of "geometric_stiffness", a contact's push-out or an accepted stalled projection make is
// not undone, and a ball chain of ten 0.2 kg links under 15 t released 20° off the vertical at h = 0.05
// peaked 7.6·10⁶ J above its start with exit 0 (README, compliant, Known limits). After every step
//   excess = (E + S) − (line + S₀),
// E the mechanical energy (step_energy.hpp: kinetic, gravity, soft rows' springs), S = ½h Σ m g·v its
// gravity shadow (symplectic Euler keeps E + S, not E), line the energy at t = 0 plus every substep's
// external work (scene forces, prescribed bodies, drives), S₀ the shadow at t = 0. The excess is judged
// against the scale
//   A = (line + S₀) − U_min + Σ m|g| r_g + kFloor·|E₀|,
// U_min the lowest gravity potential Σ −m g·c the bodies have had at a step's end: (line + S₀) − U_min is
// the largest kinetic energy the line allows, the energy the scene has to move with, and a gain that goes
// into motion does not raise it (the peak kinetic energy would grow with the gain itself). Σ m|g| r_g, each
// moving body's weight times its radius of gyration √(tr Ī / 2m) (a box's half edge, 0.77 of a sphere's
// radius), is the energy of moving every body by its own size under gravity: the first steps of a release
// have dropped almost nothing, and the first step of a motor turning a 500 kg arm that carries the 15 t
// chain (h = 0.05) read 264 J above a line that allowed 556 J. Both are independent of where the scene's
// origin lies; kFloor only keeps a scene at rest without gravity (A = 0) from being judged on round-off.
// A step whose excess passes kMargin · A stops the run with a SimulationError naming the energy, the line
// and the excess (the run loop and Python add the step and its time).
#include <string>

namespace affix {

class EnergyLineCheck {
 public:
  /// The excess, in units of A, past which a step has made energy. Measured (README, compliant,
  /// Divergence): every compliant example and test, and compliant13's chains and arms at h = 1/60,
  /// 0.05 and 0.1, stay below 0.08 A (a slack pendulum's catch at h = 0.1); the chains that gain energy
  /// under geometric stiffness pass 47–196 A.
  static constexpr double kMargin = 1.0;
  /// Relative to |E₀|: A's floor.
  static constexpr double kFloor = 1e-6;

  EnergyLineCheck() = default;
  /// The energy E₀, shadow S₀ and gravity potential U₀ at t = 0, and Σ m|g| r_g of the moving bodies.
  EnergyLineCheck(double energy, double shadow, double potential, double body_scale);

  /// After a step: E, S and U at its end and the energy line. Throws a SimulationError when the excess
  /// passes kMargin · A.
  void check(double energy, double shadow, double potential, double line);

  /// The largest excess / A so far (for measurements; README).
  double worst() const { return worst_; }
  /// The largest excess so far, J.
  double worst_excess() const { return worst_excess_; }

 private:
  double start_energy_ = 0.0, start_shadow_ = 0.0, lowest_potential_ = 0.0, body_scale_ = 0.0;
  double worst_ = 0.0, worst_excess_ = 0.0;
};

}  // namespace affix
