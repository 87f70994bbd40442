// The model's joint frames: each joint's world frame at t = 0, carried into the rest frame of each of
// its bodies, must come back to the same world frame when carried out again by the initial poses —
// for every joint type and random body poses — and the contact exclusions follow collide_connected.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>
#include <string>

#include "affix/error.hpp"
#include "affix/model/model.hpp"
#include "affix/model/records.hpp"

namespace affix {
namespace {

BodyDef box(const std::string& name, const Vec3& size, const Vec3& position) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{size, 1};
  b.position = position;
  return b;
}

Quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

/// Two separated boxes at random poses and one joint of `type` between them (or to the world).
Scene jointed_pair(JointType type, bool to_world, std::mt19937& rng) {
  BodyDef a = box("a", Vec3(0.4, 0.3, 0.2), Vec3(-1.0, 0.2, 1.0));
  BodyDef b = box("b", Vec3(0.3, 0.5, 0.2), Vec3(1.0, -0.3, 1.5));
  a.rotation = random_rotation(rng), b.rotation = random_rotation(rng);
  Scene scene;
  scene.file = "test.json";
  scene.bodies = {a, b};
  JointDef j;
  j.name = "j";
  j.type = type;
  j.body1 = "a", j.body1_index = 0;
  j.body2 = to_world ? "world" : "b", j.body2_index = to_world ? -1 : 1;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  j.anchor = Vec3(u(rng), u(rng), 1.0 + u(rng));
  j.axis = Vec3(u(rng), u(rng), u(rng)).normalized();
  const Vec3 a1 = j.axis, a2 = a1.cross(Vec3(u(rng), u(rng), u(rng))).normalized();
  j.axes = {a1, a2};
  j.frame = random_rotation(rng).toRotationMatrix();
  j.anchor1 = Vec3(-1.0, 0.2, 1.1), j.anchor2 = Vec3(1.0, -0.3, 1.4);
  j.point = j.anchor;
  j.direction = j.axis;
  scene.joints = {j};
  return scene;
}

std::vector<BodyPose> initial_poses(const Model& model) {
  std::vector<BodyPose> poses;
  for (const ModelBody& b : model.bodies) poses.push_back({b.position, b.rotation});
  return poses;
}

TEST(JointFrames, EachBodyCarriesTheJointFrameBackToItsWorldFrameAtTheStart) {
  std::mt19937 rng(7);
  const JointType types[] = {JointType::ball,  JointType::hinge,      JointType::prismatic, JointType::universal,
                             JointType::fixed, JointType::cone_twist, JointType::distance,  JointType::slider};
  for (const JointType type : types) {
    for (const bool to_world : {false, true}) {
      const Scene scene = jointed_pair(type, to_world, rng);
      const Model model = compile(scene);
      const ModelJoint& joint = model.joints[0];
      const JointDef& def = scene.joints[0];
      SCOPED_TRACE(std::string(to_string(type)) + (to_world ? " to the world" : " between bodies"));
      // The axes are orthonormal and right-handed in every frame.
      for (const JointFrame* f : {&joint.frame1, &joint.frame2}) {
        EXPECT_LT((f->axes.transpose() * f->axes - Mat3::Identity()).norm(), 1e-12);
        EXPECT_NEAR(f->axes.determinant(), 1.0, 1e-12);
      }
      const std::vector<JointRecord> records = joint_records(model, initial_poses(model));
      ASSERT_EQ(records.size(), 1u);
      const JointRecord& r = records[0];
      const Vec3 expected1 = type == JointType::distance ? def.anchor1
                             : type == JointType::slider ? def.point
                                                         : def.anchor;
      const Vec3 expected2 = type == JointType::distance ? def.anchor2 : expected1;
      EXPECT_LT((r.anchor1 - expected1).norm(), 1e-12);
      EXPECT_LT((r.anchor2 - expected2).norm(), 1e-12);
      EXPECT_LT((r.axis1 - r.axis2).norm(), 1e-12);  // both bodies carry the same world axis at t = 0
      if (type == JointType::hinge || type == JointType::prismatic) EXPECT_LT((r.axis1 - def.axis).norm(), 1e-12);
      if (type == JointType::universal) EXPECT_LT((r.axis1 - def.axes[0]).norm(), 1e-12);
      if (type == JointType::cone_twist) EXPECT_LT((r.axis1 - def.frame.col(0)).norm(), 1e-12);
    }
  }
}

TEST(JointFrames, RecordsFollowTheBodies) {
  std::mt19937 rng(11);
  const Model model = compile(jointed_pair(JointType::hinge, false, rng));
  std::vector<BodyPose> poses = initial_poses(model);
  // Turn and move body a: its anchor moves with it, body b's stays.
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3::UnitZ()).toRotationMatrix();
  poses[0] = {poses[0].p + Vec3(0.1, 0.2, 0.3), turn * poses[0].A};
  const JointRecord r = joint_records(model, poses)[0];
  const JointFrame& f1 = model.joints[0].frame1;
  EXPECT_LT((r.anchor1 - (poses[0].A * f1.origin + poses[0].p)).norm(), 1e-12);
  EXPECT_LT((r.anchor2 - model.joints[0].def.anchor).norm(), 1e-12);
}

TEST(ContactExclusions, FollowCollideConnected) {
  std::mt19937 rng(3);
  Scene scene = jointed_pair(JointType::ball, false, rng);
  Model model = compile(scene);
  ASSERT_EQ(model.excluded_pairs.size(), 1u);
  EXPECT_FALSE(model.may_collide(0, 1));
  EXPECT_FALSE(model.may_collide(1, 0));
  scene.joints[0].collide_connected = true;
  model = compile(scene);
  EXPECT_TRUE(model.excluded_pairs.empty());
  EXPECT_TRUE(model.may_collide(0, 1));
  // A joint to the world excludes nothing.
  EXPECT_TRUE(compile(jointed_pair(JointType::ball, true, rng)).excluded_pairs.empty());
}

TEST(ContactExclusions, JointedBodiesMayStartOverlapping) {
  std::mt19937 rng(5);
  Scene scene = jointed_pair(JointType::ball, false, rng);
  scene.bodies[1].position = scene.bodies[0].position + Vec3(0.05, 0.0, 0.0);  // deep overlap
  EXPECT_NO_THROW(compile(scene));
  scene.joints[0].collide_connected = true;
  EXPECT_THROW(compile(scene), InputError);
}

}  // namespace
}  // namespace affix
