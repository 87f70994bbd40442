#pragma once
// The interface every solver back-end implements (STYLE.md practice 3), and the one factory.
#include <memory>
#include <string>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/scene/scene.hpp"

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
};

/// A body's pose: the rest-space point x̄ lands at A·x̄ + p.
struct BodyPose {
  Vec3 p = Vec3::Zero();
  Mat3 A = Mat3::Identity();
};

class Simulator {
 public:
  virtual ~Simulator() = default;
  virtual const char* name() const = 0;
  /// Advances one time step. Throws SimulationError when the state diverges or the step cannot be
  /// solved; its message names the body or bodies (the caller adds the step and its time).
  virtual StepStats step() = 0;
  virtual double time() const = 0;
  virtual int step_count() const = 0;
  /// Current pose of every scene body, in scene order.
  virtual std::vector<BodyPose> poses() const = 0;
};

/// Names accepted by settings.solver and --solver.
std::vector<std::string> solver_names();

/// Builds the solver the scene asks for. Throws InputError when the scene uses something the solver
/// cannot do yet (naming the JSON path), or when bodies start intersecting the ground or each other.
std::unique_ptr<Simulator> make_simulator(const Scene& scene);

}  // namespace affix
