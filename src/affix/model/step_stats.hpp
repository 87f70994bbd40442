#pragma once
// What one step of any solver reports: the columns of stats.csv (DESIGN §4) and its diagnostics.
namespace affix {

/// Per-step statistics; the columns of stats.csv (DESIGN §4) plus solver diagnostics.
struct StepStats {
  int step = 0;                  ///< 1-based index of the step just taken
  double time = 0.0;             ///< simulated time after the step (s)
  int iterations = 0;            ///< Newton (or solver) iterations
  double residual = 0.0;         ///< final convergence measure (solver-specific, documented)
  double min_distance = 0.0;     ///< smallest contact distance at the end of the step (m); inf if none near
  int active_contacts = 0;       ///< contact stencils with d < d̂ at the end of the step
  double max_joint_error = 0.0;  ///< largest joint violation (m)
  double kinetic_energy = 0.0;   ///< J
  double potential_energy = 0.0; ///< gravity + elastic (orthogonality) + barrier, J
  double wall_ms = 0.0;          ///< wall-clock time of the step
  bool hit_iteration_cap = false;  ///< the step stopped at max_iterations before converging
  int line_search_evaluations = 0;
  double barrier_stiffness = 0.0;  ///< κ used in this step (0 when no contact model)
  int warnings = 0;              ///< counted numerical events in this step (see solver docs)
  double max_penetration = 0.0;  ///< deepest contact penetration at the end of the step (m); 0 for ipc
  /// The deepest overlap of two bodies, or of a body and the ground, at the end of the step, for the run's
  /// contact depth check (io/contact_depth.hpp): its bodies (model indices; body2 −1: the ground; body1 −1:
  /// none reported) and its depth (m). Not a stats.csv column.
  int overlap_body1 = -1;
  int overlap_body2 = -1;
  double overlap_depth = 0.0;
};

}  // namespace affix
