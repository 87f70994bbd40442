// The checks of edits between steps (model/state_edits.hpp) and the Simulator interface's defaults for a
// back-end that has not implemented them.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "affix/error.hpp"
#include "affix/model/simulator.hpp"
#include "affix/model/state_edits.hpp"

namespace affix {
namespace {

Model two_boxes() {
  Scene scene;
  scene.file = "edits.json";
  scene.ground = Ground{};
  BodyDef a, b;
  a.name = "a", a.position = Vec3(0, 0, 1);
  b.name = "b", b.position = Vec3(3, 0, 1), b.kinematic = Kinematic{};
  scene.bodies = {a, b};
  return compile(scene);
}

std::vector<BodyPose> start_poses(const Model& m) {
  std::vector<BodyPose> x;
  for (const ModelBody& b : m.bodies) x.push_back({b.position, b.rotation});
  return x;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(StateEdits, CheckStateNamesWhatIsWrong) {
  const Model m = two_boxes();
  const std::vector<BodyPose> x = start_poses(m);
  const std::vector<BodyVelocity> v(2);
  EXPECT_NO_THROW(check_state(m, x, x, v));
  std::vector<BodyPose> low = x;
  low[0].p.z() = 0.375;  // a 1 m box whose lowest vertex is 0.125 m below the ground
  EXPECT_EQ(message_of([&] { check_state(m, x, low, v); }),
            "set_state: the new state: edits.json: bodies[0].position: body 'a' starts on or below the ground (a "
            "vertex is 0.125 m below z = 0); expected every vertex above the ground");
  low[0].p.z() = 0.5;  // resting exactly on the plane: "on z = 0", not "-0 m below z = 0"
  EXPECT_EQ(message_of([&] { check_state(m, x, low, v); }),
            "set_state: the new state: edits.json: bodies[0].position: body 'a' starts on or below the ground (a "
            "vertex is on z = 0); expected every vertex above the ground");
  std::vector<BodyPose> moved = x;
  moved[1].p.y() = 1;
  EXPECT_EQ(message_of([&] { check_state(m, x, moved, v); }),
            "set_state: bodies[1] ('b') is kinematic: its pose is prescribed (expected its current pose; move it "
            "with set_kinematic_target)");
  std::vector<BodyPose> flat = x;
  flat[0].A(2, 2) = 0;
  EXPECT_NE(message_of([&] { check_state(m, x, flat, v); }).find("set_state: bodies[0] ('a').rotation: det A = 0"),
            std::string::npos);
}

TEST(StateEdits, AppliedForceCarriesThePointIntoTheRestFrame) {
  const Model m = two_boxes();
  const BodyPose pose{Vec3(1, 2, 3), Eigen::AngleAxisd(0.5, Vec3(1, 1, 0).normalized()).toRotationMatrix()};
  const Vec3 x_bar(0.1, -0.2, 0.3);
  const AppliedForce f = applied_force(m, 0, pose, Vec3(0, 0, 5), pose.A * x_bar + pose.p);
  EXPECT_EQ(f.body, 0);
  EXPECT_LT((f.rest_point - x_bar).norm(), 1e-15);
  EXPECT_EQ(message_of([&] { applied_force(m, 2, pose, Vec3::Zero(), Vec3::Zero()); }),
            "apply_force: body 2: expected an index from 0 to 1 (the scene has 2 bodies)");
}

TEST(StateEdits, KinematicTargetsOnlyForKinematicBodiesAndRotations) {
  const Model m = two_boxes();
  EXPECT_NO_THROW(check_kinematic_target(m, 1, BodyPose{Vec3(0, 1, 2), Mat3::Identity()}));
  EXPECT_EQ(message_of([&] { check_kinematic_target(m, 0, BodyPose{}); }),
            "set_kinematic_target: bodies[0] ('a') is dynamic: expected a body with a `kinematic` motion in the scene");
  EXPECT_EQ(message_of([&] { check_kinematic_target(m, 1, BodyPose{Vec3::Zero(), 1.01 * Mat3::Identity()}); }),
            "set_kinematic_target: bodies[1] ('b').rotation: expected a rotation matrix");
}

TEST(StateEdits, RigidBackEndsTakeRotationsOnly) {
  const Model m = two_boxes();
  std::vector<BodyPose> x = start_poses(m);
  EXPECT_NO_THROW(check_rigid_rotations(m, x, "impulse"));
  x[0].A = 1.01 * Mat3::Identity();  // an affine body's strain: fine for ipc and mabd, not for a rigid body
  EXPECT_EQ(message_of([&] { check_rigid_rotations(m, x, "compliant"); }),
            "set_state: bodies[0] ('a').rotation: expected a rotation matrix (‖AᵀA − I‖ ≤ 1e-9, det A > 0): the "
            "compliant solver's bodies are rigid");
}

TEST(StateEdits, DriveSettersNeedTheirDriveAndAFiniteValue) {
  Model m = two_boxes();
  ModelJoint motor, plain;
  motor.def.name = "axle", motor.def.motor = MotorDef{1.0};
  plain.def.name = "pin";
  m.joints = {motor, plain};
  EXPECT_NO_THROW(check_drive_setting(m, 0, DriveSetting::motor_speed, -3.0));
  EXPECT_EQ(message_of([&] { check_drive_setting(m, 0, DriveSetting::servo_target, 0.1); }),
            "set_servo_target: joints[0] ('axle') has no servo (expected a joint with a `servo` in the scene)");
  EXPECT_EQ(message_of([&] { check_drive_setting(m, 1, DriveSetting::motor_speed, 0.1); }),
            "set_motor_speed: joints[1] ('pin') has no motor (expected a joint with a `motor` in the scene)");
  EXPECT_EQ(message_of([&] { check_drive_setting(m, 2, DriveSetting::motor_speed, 0.1); }),
            "set_motor_speed: joint 2: expected an index from 0 to 1 (the scene has 2 joints)");
  EXPECT_EQ(message_of([&] { check_drive_setting(m, 0, DriveSetting::motor_speed, 2e6); }),
            "set_motor_speed: joints[0] ('axle'): 2e+06: expected a finite number within ±1e6 (rad/s or m/s)");
}

/// A back-end that implements none of the edits.
class Frozen final : public Simulator {
 public:
  const char* name() const override { return "frozen"; }
  StepStats step() override { return {}; }
  double time() const override { return 0.0; }
  int step_count() const override { return 0; }
  std::vector<BodyPose> poses() const override { return {}; }
  std::vector<BodyVelocity> velocities() const override { return {}; }
  std::vector<JointRecord> joint_records() const override { return {}; }
  std::vector<ContactRecord> contact_records() const override { return {}; }
};

TEST(StateEdits, BackEndsWithoutThemSaySo) {
  Frozen frozen;
  EXPECT_EQ(message_of([&] { frozen.set_state({}, {}); }), "set_state is not supported by the frozen solver");
  EXPECT_EQ(message_of([&] { frozen.apply_force(0, Vec3::Zero(), Vec3::Zero()); }),
            "apply_force is not supported by the frozen solver");
  EXPECT_EQ(message_of([&] { frozen.set_kinematic_target(0, BodyPose{}); }),
            "set_kinematic_target is not supported by the frozen solver");
}

}  // namespace
}  // namespace affix
