// MJCF → Scene mapping on small models written here, where every expected value follows from the XML
// by hand: geoms to parts (MuJoCo half-sizes to affix full sizes), joints with their ranges, a chain
// of virtual links for a body with several joints, contype/conaffinity to groups and exclusions,
// the floor to the ground, and errors that name the file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "affix/error.hpp"
#include "affix/import/import_model.hpp"
#include "affix/import/load_scene_file.hpp"
#include "affix/import/map_joints.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

constexpr double kDeg = std::numbers::pi / 180.0;

constexpr const char* kModel = R"xml(<mujoco model="small">
  <compiler autolimits="true"/>
  <option timestep="0.002" gravity="0 0 -5"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 .1" pos="0 0 -0.5" friction="0.8"/>
    <body name="arm" pos="0 0 1">
      <joint name="hx" type="hinge" axis="1 0 0" range="-30 45"/>
      <joint name="hy" type="hinge" axis="0 1 0" range="-10 20"/>
      <geom type="box" size="0.1 0.2 0.3" mass="2"/>
      <geom type="ellipsoid" size="0.1 0.05 0.02" pos="0 0 0.4" mass="1"/>
      <body name="slider" pos="0 0 -0.6">
        <joint name="s" type="slide" axis="0 0 1" range="-0.1 0.2"/>
        <geom type="capsule" size="0.05 0.1" mass="1"/>
        <body name="tip" pos="0 0 -0.3">
          <geom type="sphere" size="0.05" mass="0.5"/>
        </body>
      </body>
    </body>
    <body name="free" pos="1 0 1">
      <freejoint/>
      <geom type="cylinder" size="0.1 0.2" contype="2" conaffinity="1" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor joint="hx"/><motor joint="s"/></actuator>
  <sensor><jointpos joint="hx"/></sensor>
</mujoco>
)xml";

const BodyDef& find_body(const Scene& scene, const std::string& name) {
  const auto i = scene.body_index(name);
  EXPECT_TRUE(i && *i >= 0) << name;
  return scene.bodies.at(static_cast<std::size_t>(*i));
}

const JointDef& find_joint(const Scene& scene, const std::string& name) {
  for (const JointDef& j : scene.joints)
    if (j.name == name) return j;
  ADD_FAILURE() << "no joint " << name;
  return scene.joints.front();
}

TEST(ImportModel, MapsSettingsGroundAndGeoms) {
  TempDir dir;
  const ImportedModel imported = import_model_report(dir.write("small.xml", kModel));
  const Scene& scene = imported.scene;
  EXPECT_EQ(scene.name, "small");
  EXPECT_EQ(scene.settings.dt, 0.002);
  EXPECT_EQ(scene.settings.gravity, Vec3(0, 0, -5));
  ASSERT_TRUE(scene.ground);
  EXPECT_EQ(scene.ground->height, -0.5);
  EXPECT_EQ(scene.ground->friction, 0.8);

  const auto& arm = std::get<CompoundShape>(find_body(scene, "arm").shape);
  ASSERT_EQ(arm.parts.size(), 2u);
  EXPECT_EQ(std::get<BoxShape>(arm.parts[0].shape).size, Vec3(0.2, 0.4, 0.6));  // half-sizes doubled
  EXPECT_EQ(std::get<SphereShape>(arm.parts[1].shape).radius, 1.0);            // ellipsoid: unit sphere
  EXPECT_EQ(arm.parts[1].scale, Vec3(0.1, 0.05, 0.02));                        // scaled by its semi-axes
  const auto& slider = std::get<CompoundShape>(find_body(scene, "slider").shape);
  EXPECT_EQ(std::get<CapsuleShape>(slider.parts[0].shape).length, 0.2);         // half-length doubled
  const auto& free = std::get<CompoundShape>(find_body(scene, "free").shape);
  EXPECT_EQ(std::get<CylinderShape>(free.parts[0].shape).length, 0.4);

  // Masses from the geoms, as MuJoCo's compiler computed them; the pose at qpos0.
  EXPECT_NEAR(find_body(scene, "arm").inertial->mass, 3.0, 1e-12);
  EXPECT_LT((find_body(scene, "tip").position - Vec3(0, 0, 0.1)).norm(), 1e-12);
  EXPECT_FALSE(find_body(scene, "free").fixed);
}

TEST(ImportModel, MapsJointsLimitsAndVirtualLinks) {
  TempDir dir;
  const Scene scene = import_model_report(dir.write("small.xml", kModel)).scene;
  // arm has two hinges: world —hx— arm/virtual1 —hy— arm.
  const JointDef& hx = find_joint(scene, "hx");
  EXPECT_EQ(hx.type, JointType::hinge);
  EXPECT_EQ(hx.body2, "world");
  EXPECT_EQ(hx.body1, "arm/virtual1");
  EXPECT_NEAR(hx.angle_limits->min, -30 * kDeg, 1e-12);
  EXPECT_NEAR(hx.angle_limits->max, 45 * kDeg, 1e-12);
  const JointDef& hy = find_joint(scene, "hy");
  EXPECT_EQ(hy.body2, "arm/virtual1");
  EXPECT_EQ(hy.body1, "arm");
  EXPECT_LT((hy.axis - Vec3::UnitY()).norm(), 1e-12);
  EXPECT_LT((hy.anchor - Vec3(0, 0, 1)).norm(), 1e-12);

  const BodyDef& link = find_body(scene, "arm/virtual1");
  EXPECT_EQ(link.collision.group, 0);  // touches nothing
  EXPECT_NEAR(link.inertial->mass, kVirtualLinkFraction * 3.0, 1e-15);

  const JointDef& s = find_joint(scene, "s");
  EXPECT_EQ(s.type, JointType::prismatic);
  EXPECT_EQ(s.body1, "slider");
  EXPECT_EQ(s.body2, "arm");
  EXPECT_NEAR((*s.limits)[0], -0.1, 1e-12);
  EXPECT_NEAR((*s.limits)[1], 0.2, 1e-12);
  // tip has no joint: welded to its moving parent.
  const JointDef& weld = find_joint(scene, "tip/weld");
  EXPECT_EQ(weld.type, JointType::fixed);
  EXPECT_EQ(weld.body2, "slider");
  // free: a free joint is no joint.
  for (const JointDef& j : scene.joints) EXPECT_NE(j.body1, "free");
  EXPECT_EQ(scene.joints.size(), 4u);
}

TEST(ImportModel, ContactFilterAgreesWithMujocoOnEveryPair) {
  // MuJoCo: a and b touch when (contype_a & conaffinity_b) or (contype_b & conaffinity_a) is non-zero.
  // free (contype 2, conaffinity 1) and arm (1, 1): 2 & 1 = 0 but 1 & 1 ≠ 0, they touch. other (2, 2)
  // and arm: 2 & 1 = 0 both ways, they do not; other and free: 2 & 2 ≠ 0, they touch.
  std::string model = kModel;
  model.insert(model.find("  </worldbody>"), R"xml(    <body name="other" pos="2 0 1">
      <freejoint/>
      <geom type="sphere" size="0.1" contype="2" conaffinity="2"/>
    </body>
)xml");
  TempDir dir;
  const Scene scene = import_model_report(dir.write("filter.xml", model)).scene;
  const auto touches = [&](const std::string& a, const std::string& b) {
    const BodyDef &x = find_body(scene, a), &y = find_body(scene, b);
    for (const ExclusionDef& e : scene.exclusions)
      if ((e.body1 == a && e.body2 == b) || (e.body1 == b && e.body2 == a)) return false;
    return (x.collision.group & y.collision.mask) != 0 && (y.collision.group & x.collision.mask) != 0;
  };
  EXPECT_TRUE(touches("free", "arm"));
  EXPECT_TRUE(touches("free", "other"));
  EXPECT_FALSE(touches("other", "arm"));
  EXPECT_FALSE(touches("other", "slider"));
  EXPECT_TRUE(touches("arm", "tip"));  // grandparent and grandchild: MuJoCo lets them touch
}

TEST(ImportModel, ListsWhatItCannotMapInOneLine) {
  TempDir dir;
  const auto file = dir.write("small.xml", kModel);
  const ImportedModel imported = import_model_report(file);
  EXPECT_EQ(imported.unmapped.counts().at("actuators"), 2);
  EXPECT_EQ(imported.unmapped.counts().at("sensors"), 1);
  const std::string line = unmapped_warning(file, imported);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_EQ(line.rfind("affix: warning: " + file.string() + ": not imported", 0), 0u) << line;
  EXPECT_NE(line.find("2 actuators"), std::string::npos) << line;
  EXPECT_NE(line.find("1 sensors"), std::string::npos) << line;
}

std::string error_of(const std::filesystem::path& file) {
  try {
    load_scene_file(file);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << message;
    return message;
  }
  ADD_FAILURE() << "no InputError for " << file;
  return {};
}

TEST(ImportModel, RefusesBadModelsNamingTheFile) {
  TempDir dir;
  EXPECT_NE(error_of(dir.path() / "missing.xml").find("cannot import the model"), std::string::npos);
  const std::string broken = error_of(dir.write("broken.xml", "<mujoco><worldbody><body></worldbody></mujoco>"));
  EXPECT_NE(broken.find("MuJoCo"), std::string::npos) << broken;
  // A moving body without mass: MuJoCo compiles it (mass 0), affix cannot move it.
  std::string massless = kModel;
  massless.replace(massless.find(R"(<geom type="cylinder" size="0.1 0.2" contype="2" conaffinity="1" mass="1"/>)"),
                   std::string(R"(<geom type="cylinder" size="0.1 0.2" contype="2" conaffinity="1" mass="1"/>)").size(),
                   R"(<inertial pos="0 0 0" mass="1e-30" diaginertia="1e-30 1e-30 1e-30"/>)");
  const std::string message = error_of(dir.write("massless.xml", massless));
  EXPECT_NE(message.find("free"), std::string::npos) << message;
}

TEST(ImportModel, LoaderDispatchesByExtension) {
  EXPECT_TRUE(is_importable_model("robot.URDF"));
  EXPECT_TRUE(is_importable_model("a/b/humanoid.xml"));
  EXPECT_TRUE(is_importable_model("m.mjcf"));
  EXPECT_FALSE(is_importable_model("scene.json"));
  TempDir dir;
  const Scene scene = load_scene_file(dir.write("small.xml", kModel));
  EXPECT_EQ(scene.file.filename(), "small.xml");
  EXPECT_GE(scene.bodies.size(), 5u);
  const Scene json = load_scene_file(dir.write("s.json", R"({"bodies": [{"name": "a", "shape": {"sphere": 1}}]})"));
  EXPECT_EQ(json.bodies.size(), 1u);
}

}  // namespace
}  // namespace affix
