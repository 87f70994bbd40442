// The run loop's divergence check on joints (io/joint_tear.hpp): the scene's size from its bodies and
// anchors, the limits of rigid joints and springs, a distance joint's gap at t = 0, and which joint is
// reported when several come apart.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/io/joint_tear.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

/// A 0.2 m sphere at x = 1 and a 2 m box at x = 4 on a ball joint at x = 2, and a cable joint to the world.
Scene two_links() {
  Scene s;
  s.bodies = {test::sphere_body("a", 0.2, Vec3(1, 0, 0)), test::box_body("b", Vec3(2, 2, 2), Vec3(4, 0, 0))};
  test::add_joint(s, JointType::ball, "a", "b").anchor = Vec3(2, 0, 0);
  test::add_joint(s, JointType::cable, "b", "world").anchor = Vec3(6, 0, 0);
  return s;
}

TEST(JointTear, TheScenesSizeIsTheDiagonalAroundItsBodiesShapesAndAnchors) {
  // Each body widened by its bounding radius along every axis (the sphere's 0.2, the box's √3): x from
  // 0.8 (the sphere) to 6 (the cable's anchor), y and z ±√3 (the box): (5.2, 2√3, 2√3).
  const JointTear tear(two_links());
  EXPECT_DOUBLE_EQ(tear.scene_size(), std::sqrt(5.2 * 5.2 + 12 + 12));
  EXPECT_DOUBLE_EQ(tear.limit(0), 0.1 * tear.scene_size()) << "a rigid joint: a tenth";
  EXPECT_DOUBLE_EQ(tear.limit(1), 0.1 * tear.scene_size()) << "a cable's axial and shear rows are stiff";
}

TEST(JointTear, ASlackCableTearsAsARigidJointAndASoftCableNever) {
  // A slack cable's gap leaves out the slack its rope allows (joint_table.hpp's slack rule), so it tears
  // where a rigid joint does (it had ten scene sizes while slack joints slid without bound).
  Scene s = two_links();
  s.settings.solver = "compliant";
  s.settings.solver_settings["compliant"] = {{"slack_cables", true}};
  s.joints[1].axis = Vec3::UnitX();
  EXPECT_DOUBLE_EQ(JointTear(s).limit(1), 0.1 * JointTear(s).scene_size());
  // The box b's origin lies 2 m from the cable's anchor along its axis (x): r = 4 m, σ = −1 (b lies on
  // the −x side). Slack by 3 m is no gap; 5 m is 1 m past the stop; stretched by 0.5 m is 0.5 m.
  const JointTable table(s);
  JointRecord record;
  record.joint = 1;
  record.axis2 = Vec3::UnitX();
  record.anchor1 = Vec3(3, 0, 0);
  EXPECT_DOUBLE_EQ(table.gap(1, record), 0.0);
  record.anchor1 = Vec3(5, 0, 0);
  EXPECT_DOUBLE_EQ(table.gap(1, record), 1.0);
  record.anchor1 = Vec3(-0.5, 0, 0);
  EXPECT_DOUBLE_EQ(table.gap(1, record), 0.5);
  EXPECT_DOUBLE_EQ(JointTable(s.joints).gap(1, record), 0.5) << "without the scene's settings: the anchors' distance";
  s = two_links();
  s.joints[1].axial.stiffness = 1e4;  // a bungee
  EXPECT_EQ(JointTear(s).limit(1), std::numeric_limits<double>::infinity());
}

TEST(JointTear, AJointWithStiffnessOrACompliantSceneWithSoftRowsIsASpringAndNeverTears) {
  const double unbounded = std::numeric_limits<double>::infinity();
  Scene s = two_links();
  s.joints[0].stiffness = 100.0;
  EXPECT_EQ(JointTear(s).limit(0), unbounded);
  s = two_links();
  s.settings.solver = "compliant";
  s.settings.solver_settings["compliant"] = {{"compliance", 1e-12}};
  EXPECT_DOUBLE_EQ(JointTear(s).limit(0), 0.1 * JointTear(s).scene_size()) << "the default: rigid rows";
  s.settings.solver_settings["compliant"] = {{"compliance", 1e-6}};
  EXPECT_EQ(JointTear(s).limit(0), unbounded);
  s.settings.solver = "impulse";  // the block belongs to a solver that does not run it
  EXPECT_DOUBLE_EQ(JointTear(s).limit(0), 0.1 * JointTear(s).scene_size());
  // A 1 kg sphere on a 1 N/m spring swings to 2mg/k = 19.6 m of stretch: healthy, whatever the scene's size.
  s = two_links();
  s.joints[0].stiffness = 1.0;
  std::vector<JointRecord> records(1);
  records[0].joint = 0;
  records[0].anchor2 = Vec3(19.6, 0, 0);
  EXPECT_FALSE(JointTear(s).find(JointTable(s.joints), records).has_value());
}

TEST(JointTear, BodiesNoJointHoldsDoNotCountInTheScenesSize) {
  // A fixed marker 1 km away would lift the rigid ball joint's limit from 0.71 m to 100 m.
  Scene s = two_links();
  const double size = JointTear(s).scene_size();
  BodyDef marker = test::sphere_body("marker", 0.1, Vec3(1000, 0, 0));
  marker.fixed = true;
  s.bodies.push_back(marker);
  EXPECT_DOUBLE_EQ(JointTear(s).scene_size(), size);
}

TEST(JointTear, ADistanceJointStartingOffItsLengthHasThatGapAddedToItsLimit) {
  Scene s = two_links();
  JointDef& d = test::add_joint(s, JointType::distance, "a", "b");
  d.anchor1 = Vec3(1, 0, 0);
  d.anchor2 = Vec3(4, 0, 0);
  d.length = 1.0;  // 3 m apart: a gap of 2 m at t = 0
  const JointTear tear(s);
  EXPECT_DOUBLE_EQ(tear.limit(2), 0.1 * tear.scene_size() + 2.0);
  EXPECT_DOUBLE_EQ(tear.limit(0), 0.1 * tear.scene_size());
  std::vector<JointRecord> records(1);  // 5 m apart: a gap of 4 m, past 0.1 L + 2 = 2.71 m
  records[0].joint = 2;
  records[0].anchor2 = Vec3(5, 0, 0);
  const auto found = tear.find(JointTable(s.joints), records);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(tear.message(JointTable(s.joints), *found),
            "joint 'j2' (between 'a' and 'b') came apart: a gap of 4 m, past its limit of 2.71 m (a tenth of the "
            "scene's size, 7.14 m, plus its gap at t = 0, 2 m): the simulation diverged (try a smaller dt, or see "
            "the solver's stabilization in the README)");
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
  s.bodies = {test::box_body("wheel", Vec3::Ones(), Vec3::Zero())};
  s.bodies[0].shape = MeshShape{};  // a mesh file counts by its origin
  test::add_joint(s, JointType::hinge, "wheel", "world");
  const JointTear tear(s);
  EXPECT_EQ(tear.scene_size(), 0.0);
  std::vector<JointRecord> records(1);
  records[0].joint = 0;
  records[0].anchor2 = Vec3(1e9, 0, 0);
  EXPECT_FALSE(tear.find(JointTable(s.joints), records).has_value());
}

}  // namespace
}  // namespace affix
