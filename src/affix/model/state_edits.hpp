#pragma once
// Edits of a running simulation from outside the scene file (Simulator::set_state, apply_force,
// set_kinematic_target; the Python module's sim.set_state, sim.apply_force, sim.set_kinematic_target).
// The checks live here, beside the model, so that every back-end refuses a bad request with the same
// message: InputError, naming the request, the body (index and name) and what was expected.
#include <string>
#include <vector>

#include "affix/model/body_state.hpp"
#include "affix/model/model.hpp"

namespace affix {

/// A world force held for one step on a body point, the point carried into the body's rest frame, so
/// that the force follows the point as the body moves within the step (like a scene force's `point`).
struct AppliedForce {
  int body = -1;
  Vec3 force = Vec3::Zero();       ///< N, world
  Vec3 rest_point = Vec3::Zero();  ///< x̄ with A x̄ + p = the world point given
};

/// Throws InputError unless 0 ≤ body < the model's body count: "<request>: body 7: expected an index
/// below 3 (the scene's body count)".
void check_body_index(const Model& model, int body, const std::string& request);

/// set_state's checks: one pose and one velocity per model body, every number finite, every A with
/// det A > 0 (an affine map that keeps orientation; a rigid back-end wants a rotation, its own check);
/// a fixed or kinematic body's pose equal to its `current` one (its motion is prescribed: a kinematic
/// body is moved by set_kinematic_target); and the new poses pass the start checks (no two bodies that
/// may touch intersect, no moving body on or below the ground). Throws InputError.
void check_state(const Model& model, const std::vector<BodyPose>& current, const std::vector<BodyPose>& poses,
                 const std::vector<BodyVelocity>& velocities);

/// apply_force's checks (a valid body, finite force and point) and the force with its point in the rest
/// frame of the body at `pose`: x̄ = A⁻¹(x − p). Throws InputError.
AppliedForce applied_force(const Model& model, int body, const BodyPose& pose, const Vec3& force, const Vec3& point);

/// set_kinematic_target's checks: a valid index of a body with a scene `kinematic` motion (a fixed body
/// stays fixed, a dynamic one is moved by forces), a finite position and a rotation (‖RᵀR − I‖ ≤ 1e-9,
/// det R > 0). Throws InputError.
void check_kinematic_target(const Model& model, int body, const BodyPose& target);

/// set_state's further check for a back-end whose bodies are rigid (impulse, compliant): every A a
/// rotation, ‖AᵀA − I‖ ≤ 1e-9 and det A > 0 (the tolerance of set_kinematic_target). Throws InputError
/// naming the body and the solver.
void check_rigid_rotations(const Model& model, const std::vector<BodyPose>& poses, const char* solver);

/// What a drive setter changes (Simulator::set_motor_speed, set_servo_target).
enum class DriveSetting { motor_speed, servo_target };

/// The drive setters' checks: 0 ≤ joint < the model's joint count, the joint has a `motor` (motor_speed)
/// or a `servo` (servo_target), and the value is finite and within ±10⁶ as the scene's `velocity` and
/// `position` are. Throws InputError: "set_motor_speed: joints[1] ('elbow') has no motor (expected a joint
/// with a `motor` in the scene)".
void check_drive_setting(const Model& model, int joint, DriveSetting setting, double value);

}  // namespace affix
