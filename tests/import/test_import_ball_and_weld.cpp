// Two MuJoCo features affix has no one-to-one equivalent for, on models written here: a ball joint's
// `range` (a bound on the whole rotation angle) becomes a cone_twist whose three angles share the
// range, and a weld equality whose `relpose` differs from the pose the bodies start in is refused,
// naming the equality, while one that holds the start pose imports as a fixed joint.
#include <gtest/gtest.h>

#include <numbers>
#include <string>

#include "affix/error.hpp"
#include "affix/import/import_model.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

constexpr double kDeg = std::numbers::pi / 180.0;

std::string ball_model(const std::string& range) {
  return R"xml(<mujoco model="cone">
  <worldbody>
    <body name="rod" pos="0 0 1">
      <joint name="shoulder" type="ball" pos="0 0 0" axis="0 0 1" )xml" + range + R"xml(/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.02"/>
    </body>
  </worldbody>
</mujoco>
)xml";
}

const JointDef& only_joint(const Scene& scene) {
  EXPECT_EQ(scene.joints.size(), 1u);
  return scene.joints.at(0);
}

TEST(ImportBall, RangeBecomesAConeTwistWithEveryAngleInTheRange) {
  TempDir dir;
  const ImportedModel imported = import_model_report(dir.write("cone.xml", ball_model(R"(limited="true" range="0 30")")));
  const JointDef& j = only_joint(imported.scene);
  ASSERT_EQ(j.type, JointType::cone_twist);
  EXPECT_LT((j.anchor - Vec3(0, 0, 1)).norm(), 1e-12);
  EXPECT_LT((j.frame.col(0) - Vec3::UnitZ()).norm(), 1e-12);  // the joint's axis twists
  EXPECT_LT((j.frame.transpose() * j.frame - Mat3::Identity()).norm(), 1e-12);
  EXPECT_GT(j.frame.determinant(), 0.0);
  for (const auto& range : {j.twist_limits, j.swing1_limits, j.swing2_limits}) {
    ASSERT_TRUE(range);
    EXPECT_NEAR(range->min, -30 * kDeg, 1e-12);
    EXPECT_NEAR(range->max, 30 * kDeg, 1e-12);
  }
  EXPECT_TRUE(imported.unmapped.empty()) << imported.unmapped.text();
}

TEST(ImportBall, UnlimitedBallStaysABall) {
  TempDir dir;
  EXPECT_EQ(only_joint(import_model_report(dir.write("ball.xml", ball_model(""))).scene).type, JointType::ball);
}

TEST(ImportBall, WideRangeHoldsSwing1BelowTheGimbalAndSaysSo) {
  TempDir dir;
  const ImportedModel imported = import_model_report(dir.write("wide.xml", ball_model(R"(limited="true" range="0 120")")));
  const JointDef& j = only_joint(imported.scene);
  ASSERT_EQ(j.type, JointType::cone_twist);
  EXPECT_NEAR(j.twist_limits->max, 120 * kDeg, 1e-12);
  EXPECT_NEAR(j.swing1_limits->max, 89 * kDeg, 1e-12);
  EXPECT_NEAR(j.swing1_limits->min, -89 * kDeg, 1e-12);
  EXPECT_EQ(imported.unmapped.counts().size(), 1u) << imported.unmapped.text();
}

std::string weld_model(const std::string& relpose) {
  return R"xml(<mujoco model="weld">
  <worldbody>
    <body name="a" pos="0 0 1" euler="0 0 90"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body name="b" pos="0.5 0 1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  </worldbody>
  <equality><weld name="glue" body1="a" body2="b" )xml" + relpose + R"xml(/></equality>
</mujoco>
)xml";
}

TEST(ImportWeld, StartPoseWeldIsAFixedJoint) {
  TempDir dir;
  // Without relpose MuJoCo takes the pose at qpos0; written out (b in a's frame: a turned 90° about
  // z sees b at (0, −0.5, 0), turned −90°) it is the same pose, to six digits.
  for (const std::string& relpose : {std::string(), std::string(R"(relpose="0 -0.5 0 0.707107 0 0 -0.707107")")}) {
    const ImportedModel imported = import_model_report(dir.write("weld.xml", weld_model(relpose)));
    const JointDef& j = only_joint(imported.scene);
    EXPECT_EQ(j.type, JointType::fixed) << relpose;
    EXPECT_EQ(j.name, "glue");
  }
}

TEST(ImportWeld, RelposeOtherThanTheStartPoseIsRefusedNamingTheEquality) {
  TempDir dir;
  const auto file = dir.write("weld.xml", weld_model(R"(relpose="0 -0.3 0 1 0 0 0")"));
  try {
    import_model_report(file);
    FAIL() << "imported";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.string() + ": equality 'glue' (weld of 'a' and 'b')"), std::string::npos) << message;
    EXPECT_NE(message.find("by 0.2 m and 90°"), std::string::npos) << message;
    EXPECT_NE(message.find("relpose"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace affix
