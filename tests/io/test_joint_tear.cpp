// The run loop's divergence check on joints (io/joint_tear.hpp): the scene's size from its bodies and
// anchors, the limits of rigid joints and springs, a distance joint's gap at t = 0, and which joint is
// reported when several come apart.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/io/joint_tear.hpp"

namespace affix {
namespace {

BodyDef body(const char* name, const Shape& shape, const Vec3& position) {
  BodyDef b;
  b.name = name;
  b.shape = shape;
  b.position = position;
  return b;
}

JointDef joint(JointType type, const char* name, const char* body1, const char* body2) {
  JointDef j;
  j.type = type;
  j.name = name;
  j.body1 = body1;
  j.body2 = body2;
  return j;
}

/// A 0.2 m sphere at x = 1 and a 2 m box at x = 4 on a ball joint at x = 2, and a free cable joint.
Scene two_links() {
  Scene s;
  s.bodies = {body("a", SphereShape{0.2}, Vec3(1, 0, 0)), body("b", BoxShape{Vec3(2, 2, 2)}, Vec3(4, 0, 0))};
  s.joints = {joint(JointType::ball, "ab", "a", "b"), joint(JointType::cable, "rope", "b", "world")};
  s.joints[0].anchor = Vec3(2, 0, 0);
  s.joints[1].anchor = Vec3(6, 0, 0);
  return s;
}

TEST(JointTear, TheScenesSizeIsTheDiagonalAroundItsBodiesShapesAndAnchors) {
  // Each body widened by its bounding radius along every axis (the sphere's 0.2, the box's √3): x from
  // 0.8 (the sphere) to 6 (the cable's anchor), y and z ±√3 (the box): (5.2, 2√3, 2√3).
  const JointTear tear(two_links());
  EXPECT_DOUBLE_EQ(tear.scene_size(), std::sqrt(5.2 * 5.2 + 12 + 12));
  EXPECT_DOUBLE_EQ(tear.limit(0), 0.1 * tear.scene_size()) << "a rigid joint: a tenth";
  EXPECT_DOUBLE_EQ(tear.limit(1), 10 * tear.scene_size()) << "a cable is a spring: ten times";
}

TEST(JointTear, AJointWithStiffnessOrACompliantSceneWithSoftRowsIsASpring) {
  Scene s = two_links();
  s.joints[0].stiffness = 100.0;
  EXPECT_DOUBLE_EQ(JointTear(s).limit(0), 10 * JointTear(s).scene_size());
  s = two_links();
  s.settings.solver = "compliant";
  s.settings.solver_settings["compliant"] = {{"compliance", 1e-12}};
  EXPECT_DOUBLE_EQ(JointTear(s).limit(0), 0.1 * JointTear(s).scene_size()) << "the default: rigid rows";
  s.settings.solver_settings["compliant"] = {{"compliance", 1e-6}};
  EXPECT_DOUBLE_EQ(JointTear(s).limit(0), 10 * JointTear(s).scene_size());
  s.settings.solver = "impulse";  // the block belongs to a solver that does not run it
  EXPECT_DOUBLE_EQ(JointTear(s).limit(0), 0.1 * JointTear(s).scene_size());
}

TEST(JointTear, ADistanceJointStartingOffItsLengthHasThatGapAddedToItsLimit) {
  Scene s = two_links();
  JointDef d = joint(JointType::distance, "tether", "a", "b");
  d.anchor1 = Vec3(1, 0, 0);
  d.anchor2 = Vec3(4, 0, 0);
  d.length = 1.0;  // 3 m apart: a gap of 2 m at t = 0
  s.joints.push_back(d);
  const JointTear tear(s);
  EXPECT_DOUBLE_EQ(tear.limit(2), 0.1 * tear.scene_size() + 2.0);
  EXPECT_DOUBLE_EQ(tear.limit(0), 0.1 * tear.scene_size());
}

TEST(JointTear, FindsTheJointPastItsLimitByTheLargestFactorAndNoneWhenAllHold) {
  const Scene s = two_links();
  const JointTear tear(s);
  const JointTable table(s.joints);
  std::vector<JointRecord> records(2);
  records[0].joint = 0;
  records[1].joint = 1;
  records[0].anchor2 = Vec3(0.99 * tear.limit(0), 0, 0);
  records[1].anchor2 = Vec3(0.99 * tear.limit(1), 0, 0);
  EXPECT_FALSE(tear.find(table, records).has_value());
  records[0].anchor2.x() = 1.5 * tear.limit(0);
  records[1].anchor2.x() = 2.0 * tear.limit(1);
  auto found = tear.find(table, records);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->joint, 1);
  EXPECT_DOUBLE_EQ(found->gap, 2.0 * tear.limit(1));
  records[1].anchor2.x() = std::nan("");
  found = tear.find(table, records);
  ASSERT_TRUE(found.has_value()) << "a gap that is not a number has come apart";
  EXPECT_EQ(found->joint, 1);
}

TEST(JointTear, ASceneWithoutSizeIsNotChecked) {
  Scene s;
  s.bodies = {body("wheel", MeshShape{}, Vec3::Zero())};  // a mesh file counts by its origin
  s.joints = {joint(JointType::hinge, "axle", "wheel", "world")};
  const JointTear tear(s);
  EXPECT_EQ(tear.scene_size(), 0.0);
  std::vector<JointRecord> records(1);
  records[0].joint = 0;
  records[0].anchor2 = Vec3(1e9, 0, 0);
  EXPECT_FALSE(tear.find(JointTable(s.joints), records).has_value());
}

}  // namespace
}  // namespace affix
