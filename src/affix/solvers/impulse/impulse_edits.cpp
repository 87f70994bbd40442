// The impulse solver's edits between steps (Simulator::set_state, apply_force, set_kinematic_target),
// checked by model/state_edits.hpp first, so that a bad request changes nothing.
//
// set_state gives every body its new c, q, v, ω (rigid_body.hpp's set_rigid_state) — the parts of a
// split body too (body_splitting.hpp: they sit at the body's pose with its velocity) — and restarts as
// the constructor starts at t = 0: A = J M⁻¹ Jᵀ at the new poses (the step reuses the factorisation the
// last one left), the limited angles committed there, and a velocity correction, so that the velocities
// given keep the joints' rows (J u = 0) as the scene's initial velocities are made to. An applied force
// joins the external impulses of every substep of the next step (kick, Tomcin §3 step 1). A kinematic
// target replaces the body's motion by two keyframes, its pose now and the target at the end of the next
// step (PrescribedMotion::set_target); the prescribed twists are re-read at once, as a halving does.
#include "affix/solvers/impulse/impulse_simulator.hpp"

namespace affix {

void ImpulseSimulator::set_state(const std::vector<BodyPose>& poses, const std::vector<BodyVelocity>& velocities) {
  check_state(*model_, this->poses(), poses, velocities);
  check_rigid_rotations(*model_, poses, name());
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    if (!bodies_[b].prescribed) set_rigid_state(bodies_[b], poses[owner_[b]], velocities[owner_[b]]);
  evaluate_jacobians();
  for (std::size_t j = 0; j < joints_.size(); ++j) commit_limits(turns_, j, joints_[j].rows, limit_rates_[j].value);
  set_limit_rows();
  factorize();
  velocity_correction();
}

void ImpulseSimulator::apply_force(int body, const Vec3& force, const Vec3& point) {
  check_body_index(*model_, body, "apply_force");
  applied_.push_back(affix::applied_force(*model_, body, poses()[body], force, point));
}

void ImpulseSimulator::set_kinematic_target(int body, const BodyPose& target) {
  check_kinematic_target(*model_, body, target);
  const double dt = model_->settings.dt;
  prescribed_[body].set_target(time(), body_pose(bodies_[body]), (step_ + 1) * dt, target);
  evaluate_jacobians();  // the body's twist over the next step
  set_limit_rows();
  factorize();
}

}  // namespace affix
