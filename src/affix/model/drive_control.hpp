#pragma once
// Control of joint drives between steps, for the back-ends that have drives (joints[].motor, .servo:
// SolverCapabilities::joint_drives, the compliant solver). A capability beside the Simulator interface
// rather than in it: only a back-end with drives implements it, and a caller (the Python module's
// sim.set_motor_speed) finds it by dynamic_cast and otherwise says that the solver has no drives.
namespace affix {

class DriveControl {
 public:
  /// A motor's target rate ṡ* (rad/s or m/s) on model joint `joint`, from the next step on: what the
  /// scene's `motor.velocity` set (a controller's command every step, as MuJoCo's ctrl). The joint must
  /// have a motor (model/state_edits.hpp's check_drive_setting, InputError).
  virtual void set_motor_speed(int joint, double speed) = 0;
  /// A servo's set point s* (rad or m from the initial configuration) on model joint `joint`, from the
  /// next step on: what the scene's `servo.position` set. The joint must have a servo.
  virtual void set_servo_target(int joint, double target) = 0;

 protected:
  ~DriveControl() = default;
};

}  // namespace affix
