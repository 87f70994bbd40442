#pragma once
// The interface every solver back-end implements (STYLE.md practice 3). It lives beside the model,
// below the solvers, so that the run loop, the writers and the viewers work with any back-end and
// never include a solver header; solvers/registry.hpp builds one by name.
#include <string>
#include <vector>

#include "affix/model/body_state.hpp"
#include "affix/model/records.hpp"
#include "affix/model/step_stats.hpp"

namespace affix {

/// What a back-end can simulate. A test of behaviour a solver lacks is skipped with the reason; a scene
/// that needs it is refused by the solver with an InputError naming the JSON path.
struct SolverCapabilities {
  bool ground_contact = false;      ///< bodies against the ground half-space
  bool body_contact = false;        ///< mesh against mesh
  bool friction = false;            ///< Coulomb friction in those contacts
  bool intersection_free = false;   ///< no interpenetration, ever (a guarantee, not a tendency)
  bool prescribed_motion = false;   ///< fixed and kinematic bodies
  bool joint_limits = false;        ///< hinge, prismatic, slider, cone-twist and distance limits
  bool joint_drives = false;        ///< joints[].motor and joints[].servo (velocity motors, PD servos)
  bool bdf2 = false;                ///< settings.integrator "bdf2"
  bool damping = false;             ///< Rayleigh damping of contacts and limits
  bool state_edits = false;         ///< set_state, apply_force and kinematic targets between steps
  std::vector<JointType> joints;    ///< joint types it keeps
  /// How closely it keeps the joints' equality parts (m): the largest gap the physics tests accept. ipc's
  /// linear rows hold to round-off; mabd's compact rows hold to one linearised Newton step, and the
  /// spacing of a joint's control points is left to the bodies' stiffness (He 2026 §4.3).
  double joint_gap = 1e-9;
  bool supports(JointType type) const;
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
  /// Current pose of every model body, in model order.
  virtual std::vector<BodyPose> poses() const = 0;
  /// Current world-frame velocity of every model body, in model order.
  virtual std::vector<BodyVelocity> velocities() const = 0;
  /// Every model joint's frames as its two bodies carry them now (joint_records() of the poses).
  virtual std::vector<JointRecord> joint_records() const = 0;
  /// The contacts the solver acts on now (computed on request; they may cost a broad phase).
  virtual std::vector<ContactRecord> contact_records() const = 0;

  // Edits between steps, for programs that drive a simulation (the Python module). Each checks its
  // request (model/state_edits.hpp) and throws InputError for a bad one; a back-end that cannot do one
  // keeps the default, which throws InputError "<request> is not supported by the <name> solver".

  /// Replaces every model body's pose and velocity (model order, as poses() and velocities() give
  /// them). An affine back-end takes BodyVelocity::A_dot, a rigid one ::angular. Fixed and kinematic
  /// bodies must keep their current pose. The time is unchanged; a two-step integrator (BDF-2)
  /// restarts from this state with one implicit Euler step.
  virtual void set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities);
  /// A world force (N) on the body point now at world `point`, acting during the next step only (the
  /// point moves with the body within it). Several add up.
  virtual void apply_force(int body, const Vec3& force, const Vec3& point);
  /// The pose a kinematic body reaches at the end of the next step, moving there linearly in its state,
  /// and holds afterwards: it replaces the body's scene motion from now on.
  virtual void set_kinematic_target(int body, const BodyPose& target);
};

}  // namespace affix
