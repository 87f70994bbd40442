// The compliant solver's edits between steps (Simulator::set_state, apply_force, set_kinematic_target,
// set_motor_speed, set_servo_target): what a controller does between two steps, as MuJoCo's ctrl and
// Bullet's setJointMotorControl do. Every request is checked by model/state_edits.hpp first, so a bad
// one changes nothing.
//
// set_state replaces the moving bodies' c, q, v, ω (rigid_body.hpp's set_rigid_state), projects the poses
// onto the joints' rigid rows (the step's Gauss–Newton projection, kEditProjections iterations; a state
// left off them by more than kEditGap is refused, naming the joint, and nothing changes) and restarts the
// step's memory as the constructor starts it at t = 0: the rows and the continuous angles at the new
// poses, the multipliers re-estimated (K̃ reads the last λ), the contacts' and limits' warm starts
// dropped, and the energy line and its check restarted from the new mechanical energy (an edit is work
// that no scene force did). An applied force is an impulse F·h over each substep of the next step,
// added to the scene forces' (so its work F·v₊h joins the energy line, external_work). A kinematic
// target replaces the body's motion by two keyframes, its pose now and the target at the end of the
// next step (rigid_body.hpp's PrescribedMotion::set_target): the joint rows see its velocity as they see
// a keyframed body's. A drive setter changes the drive row's ṡ* or s* (drive_rows.hpp) and re-reads
// the rows, so that a servo's error φ = s − s* of the next step is the new one.
#include "affix/solvers/compliant/compliant_simulator.hpp"

#include <algorithm>
#include <string>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"
#include "affix/solvers/compliant/step_energy.hpp"

namespace affix {

void CompliantSimulator::set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) {
  check_state(*model_, this->poses(), poses, velocities);
  check_rigid_rotations(*model_, poses, name());
  const std::vector<RigidBody> before = bodies_;  // restored, with λ and the angles, if refused
  const VecX mu = mu_;
  const double mu_h = mu_h_;
  const JointTurns turns = turns_;
  for (int i : moving_) set_rigid_state(bodies_[i], poses[i], velocities[i]);
  // The poses projected onto the joints' rigid rows (and inside their limits) before the restart. Left to
  // the next step, a gap φ became the velocity −φ/h and stayed in the bodies (hostile pass 4: a pendulum's
  // bob set 5 cm off its joint at h = 1/60 gained 3 m/s, past its energy line: SimulationError); the step's
  // own projection is position-level and never takes that velocity back. The velocities are the caller's.
  commit_turns();
  evaluate_rows();
  mu_.setZero(J_.rows);  // the projection's target −Cλ: no load yet (restart_from_state estimates λ)
  mu_h_ = model_->settings.dt;
  project_poses(model_->settings.dt, false, kEditProjections);
  evaluate_rows();
  std::size_t worst = 0;
  double gap = 0.0;
  for (std::size_t j = 0; j < joints_.size(); ++j)
    if (joint_gap(j) > gap) gap = joint_gap(j), worst = j;
  if (gap > kEditGap) {  // not closed (links scattered metres from their joints): refused, nothing changed
    bodies_ = before;
    mu_ = mu;
    mu_h_ = mu_h;
    turns_ = turns;
    evaluate_rows();
    const JointDef& def = model_->joints[joint_index_[worst]].def;
    throw InputError("set_state: joints[" + std::to_string(joint_index_[worst]) + "] ('" + excerpt(def.name) +
                     "'): the bodies given cannot be moved onto the joint (" + number_text(gap) +
                     " m apart after projecting; expected poses the joints can hold)");
  }
  restart_from_state();
}

void CompliantSimulator::restart_from_state() {
  commit_turns();
  evaluate_rows();
  warm_contacts_.clear();
  std::fill(limit_lambda_.begin(), limit_lambda_.end(), 0.0);
  mu_h_ = model_->settings.dt;
  mu_.setZero(J_.rows);
  if (settings_.stabilization != Stabilization::none) estimate_initial_multipliers();
  const Vec3 g = model_->settings.gravity;
  energy_line_ = mechanical_energy(bodies_, moving_, g, phi_, compliance_, drive_offset_);
  energy_check_ = EnergyLineCheck(energy_line_, gravity_shadow(bodies_, moving_, nullptr, g, model_->settings.dt),
                                  gravity_potential(), body_scale());
}

void CompliantSimulator::apply_force(int body, const Vec3& force, const Vec3& point) {
  check_body_index(*model_, body, "apply_force");
  applied_.push_back(affix::applied_force(*model_, body, poses()[body], force, point));
}

void CompliantSimulator::add_applied_impulses(double h) {
  for (const AppliedForce& f : applied_) {
    const int u = unknown_of_[f.body];
    if (u < 0) continue;  // a fixed or kinematic body is not moved by forces
    const RigidBody& b = bodies_[f.body];
    const Vec3 lever = b.rotation() * (f.rest_point - b.rest_center);
    scene_impulse_.segment<3>(6 * u) += h * f.force;
    scene_impulse_.segment<3>(6 * u + 3) += h * lever.cross(f.force);
  }
}

void CompliantSimulator::set_kinematic_target(int body, const BodyPose& target) {
  check_kinematic_target(*model_, body, target);
  const double t = time(), dt = model_->settings.dt;
  prescribed_[body].set_target(t, body_pose(bodies_[body]), (step_ + 1) * dt, target);
}

DriveRow* CompliantSimulator::drive_of(int joint) {
  for (std::size_t d = 0; d < drives_.size(); ++d)
    if (joint_index_[drive_joint_[d]] == joint) return &drives_[d];
  for (BoundedDrive& bd : bounded_)
    if (joint_index_[bd.joint] == joint) return &bd.drive;
  return nullptr;  // a drive between two prescribed bodies: nothing to drive
}

void CompliantSimulator::set_motor_speed(int joint, double speed) {
  check_drive_setting(*model_, joint, DriveSetting::motor_speed, speed);
  if (DriveRow* drive = drive_of(joint)) drive->target = speed;
}

void CompliantSimulator::set_servo_target(int joint, double target) {
  check_drive_setting(*model_, joint, DriveSetting::servo_target, target);
  if (DriveRow* drive = drive_of(joint)) {
    drive->target = target;
    evaluate_rows();  // φ = s − s* of the drive rows
  }
}

}  // namespace affix
