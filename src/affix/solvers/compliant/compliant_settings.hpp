#pragma once
// `settings.compliant` of a scene file (README, settings.compliant): the compliant solver's own
// settings (Andrews 2017), read and validated by the solver from the raw block the scene keeps. The
// member initialisers are the only home of the defaults; the README repeats them and
// tests/solvers/test_readme_defaults.cpp compares.
#include <filesystem>

#include "affix/scene/scene.hpp"

namespace affix {

/// How the step is kept stable against the transverse vibrations of stiff constraints (Andrews §4).
enum class Stabilization {
  none,                ///< M̃ = M: the plain compliant step (Eq. 2 without K̃)
  geometric_stiffness, ///< M̃ = M − h²K̃ (Tournier 2015, Andrews Eq. 2), its inverse by `inverse`
  inertial_damping,    ///< M̃ = M + hB, B from K_d and the stability threshold (Eq. 10–13)
  constraint_damping,  ///< M̃ = M, each row damped by b′ from m′, k′ (Eq. 14–17)
  /// "auto": constraint_damping on the joints with a soft row (a cable's bending) and the bodies they hold,
  /// inertial_damping on every other body (Andrews §5: Fig. 8–9's cables in constraint space, all else
  /// inertial; stability_damping.hpp, "Which bodies").
  automatic,
};

/// How M̃⁻¹ is formed when it holds K̃ (Andrews §3).
enum class AugmentedInverse {
  low_rank,   ///< Sherman–Morrison updates of M⁻¹ by K̃'s rank-1 terms (Eq. 6, Appendix B)
  full_rank,  ///< M̃ assembled and inverted by a dense LDLT factorisation
};

struct CompliantSettings {
  Stabilization stabilization = Stabilization::inertial_damping;
  AugmentedInverse inverse = AugmentedInverse::low_rank;
  double alpha = 1.0;               ///< α of the stability threshold h²k/m ≤ 4α (Eq. 10)
  /// Keep the damping of translational DOFs in inertial damping (Andrews §5.4 discards it: bodies then
  /// seem to move through a viscous fluid).
  bool translational_damping = false;
  /// With constraint damping: damp the rows of joints to the world, fixed or kinematic bodies as well
  /// (the paper's every row). false: such a joint's rows are left undamped when its moving body has a
  /// soft row to another moving body (stability_damping.hpp, "Anchored rows").
  bool anchored_damping = false;
  /// Compliance C of every joint row (m/N for lengths, 1/(N·m) for angles; Eq. 2) of a joint without
  /// `stiffness`; a joint's `stiffness` k gives its rows C = 1/k.
  double compliance = 1e-12;
  /// The largest `compliance` the reader takes: the setting is the joints' stiff default, and above 1 a
  /// row holds nothing a scene shows (and C/h² overflows towards 1e300).
  static constexpr double kMaxCompliance = 1.0;
  /// The reduced system (Eq. 3) with at most this many rows is factorised densely (Eigen LDLT), a
  /// larger one by CHOLMOD with its symbolic analysis kept. M̃⁻¹ with K̃ is dense: always dense LDLT.
  int dense_rows = 600;
  /// Gauss–Newton projections of the poses onto the rows after each step (post-stabilization, Cline &
  /// Pai 2003; not in Andrews 2017, whose rows drift by the step's linearisation and are pulled back by
  /// −φ/h in the next step). 0: none. One that stalls is tried again on M + h²K_d (compliant_simulator.cpp,
  /// substep), which holds a 1,000,000:1 chain at h = 0.1 s.
  int projection_iterations = 3;
  /// Most projected Gauss–Seidel sweeps over the unilateral rows (contacts, friction, limits) per solve
  /// of the mixed LCP (mixed_lcp.hpp).
  int pgs_iterations = 100;
  /// The sweeps stop when no row's update changes its velocity by more than this (m/s or rad/s).
  double pgs_tolerance = 1e-6;
  /// e: a contact approaching at speed a leaves at e·a at least (0 inelastic, 1 elastic).
  double restitution = 0.0;
  /// Every `cable` joint's axial row pulls but never pushes (a rope that goes slack): a unilateral row of
  /// the mixed LCP instead of a bilateral one. Stretch is body1's side moving away from the anchor along
  /// the joint's axis (the side read from body1's centre of mass at t = 0).
  bool slack_cables = false;
  /// Add each row's predicted second-order change over the step to its right-hand side
  /// (row_curvature.hpp; not in Andrews 2017): the step then lands on its rows to second order and a
  /// swinging load keeps its energy (Fig. 8). false: the paper's rows, linearised at the start.
  bool curvature = true;

  friend bool operator==(const CompliantSettings&, const CompliantSettings&) = default;
};

const char* to_string(Stabilization s);
const char* to_string(AugmentedInverse s);

/// The compliant settings of a scene's settings (the defaults when absent). Throws InputError naming the
/// file, the JSON path (`settings.compliant.alpha`) and what was expected.
CompliantSettings read_compliant_settings(const Settings& settings, const std::filesystem::path& file);

}  // namespace affix
