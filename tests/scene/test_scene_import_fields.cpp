// The scene fields that imported models need (README "Importing MJCF and URDF"): a `compound` shape
// of placed, scaled parts, `inertial` mass properties given rather than integrated, and top-level
// `exclusions`. Each is read, refused with its JSON path when wrong, and written back unchanged.
#include <gtest/gtest.h>

#include <string>

#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

constexpr const char* kScene = R"json({
  "bodies": [
    { "name": "a", "shape": { "compound": [
        { "shape": { "capsule": { "radius": 0.1, "length": 0.4 } }, "position": [0, 0, 0.2],
          "rotation": { "axis": [1, 0, 0], "angle_deg": 90 } },
        { "shape": { "sphere": 1, "resolution": 8 }, "scale": [0.3, 0.2, 0.1] } ] },
      "inertial": { "mass": 2.5, "center_of_mass": [0.1, 0, 0], "inertia": [0.3, 0.4, 0.5, 0.01, -0.02, 0.03] } },
    { "name": "b", "shape": { "sphere": 0.5 }, "position": [3, 0, 0],
      "inertial": { "mass": 1, "inertia": [0.1, 0.1, 0.1] } }
  ],
  "exclusions": [ { "body1": "a", "body2": "b" } ]
})json";

Scene load_text(const TempDir& dir, const std::string& text) { return load_scene(dir.write("s.json", text)); }

std::string error_of(const std::string& text) {
  TempDir dir;
  try {
    load_text(dir, text);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for " << text;
  return {};
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SceneImportFields, ReadsCompoundInertialAndExclusions) {
  TempDir dir;
  const Scene scene = load_text(dir, kScene);
  const auto& compound = std::get<CompoundShape>(scene.bodies[0].shape);
  ASSERT_EQ(compound.parts.size(), 2u);
  EXPECT_DOUBLE_EQ(std::get<CapsuleShape>(compound.parts[0].shape).length, 0.4);
  EXPECT_NEAR(compound.parts[0].rotation.angularDistance(Quat(Eigen::AngleAxisd(EIGEN_PI / 2, Vec3::UnitX()))), 0.0, 1e-12);
  EXPECT_EQ(compound.parts[1].scale, Vec3(0.3, 0.2, 0.1));
  EXPECT_EQ(std::get<SphereShape>(compound.parts[1].shape).resolution, 8);

  const Inertial& inertial = *scene.bodies[0].inertial;
  EXPECT_EQ(inertial.mass, 2.5);
  EXPECT_EQ(inertial.center_of_mass, Vec3(0.1, 0, 0));
  Mat3 expected;
  expected << 0.3, 0.01, -0.02, 0.01, 0.4, 0.03, -0.02, 0.03, 0.5;  // MJCF fullinertia order
  EXPECT_EQ(inertial.inertia, expected);
  EXPECT_EQ(scene.bodies[1].inertial->inertia, Mat3(Vec3(0.1, 0.1, 0.1).asDiagonal()));

  ASSERT_EQ(scene.exclusions.size(), 1u);
  EXPECT_EQ(scene.exclusions[0].body1_index, 0);
  EXPECT_EQ(scene.exclusions[0].body2_index, 1);
}

TEST(SceneImportFields, WritesThemBackUnchanged) {
  TempDir dir;
  const Scene scene = load_text(dir, kScene);
  const auto file = dir.path() / "again.json";
  save_scene(scene, file);
  const Scene again = load_scene(file);
  EXPECT_EQ(scene_to_json(again, dir.path()), scene_to_json(scene, dir.path()));
  EXPECT_EQ(again.bodies[0].inertial->inertia, scene.bodies[0].inertial->inertia);
  EXPECT_EQ(again.exclusions.size(), 1u);
  // A scene without exclusions is written without the key, as before the field existed.
  Scene plain = scene;
  plain.exclusions.clear();
  EXPECT_FALSE(scene_to_json(plain, dir.path()).contains("exclusions"));
}

TEST(SceneImportFields, RefusesBadValuesNamingThePath) {
  // Principal moments 0.1, 0.1, 0.3: 0.3 > 0.1 + 0.1, no mass distribution has them.
  std::string message = error_of(replaced(kScene, "[0.1, 0.1, 0.1]", "[0.1, 0.1, 0.3]"));
  EXPECT_NE(message.find("bodies[1].inertial.inertia: expected a positive definite inertia tensor"),
            std::string::npos) << message;
  message = error_of(replaced(kScene, "[0.1, 0.1, 0.1]", "[0.1, 0.1]"));
  EXPECT_NE(message.find("bodies[1].inertial.inertia: expected an array of 3"), std::string::npos) << message;
  message = error_of(replaced(kScene, R"("inertial": { "mass": 1,)", R"("mass": 1, "inertial": { "mass": 1,)"));
  EXPECT_NE(message.find("bodies[1].inertial: expected only one of density, mass and inertial"), std::string::npos)
      << message;
  message = error_of(replaced(kScene, R"("mass": 2.5)", R"("mass": 0)"));
  EXPECT_NE(message.find("bodies[0].inertial.mass"), std::string::npos) << message;
  message = error_of(replaced(kScene, R"("body2": "b")", R"("body2": "c")"));
  EXPECT_NE(message.find("exclusions[0].body2: unknown body 'c'"), std::string::npos) << message;
  message = error_of(replaced(kScene, R"("body2": "b")", R"("body2": "a")"));
  EXPECT_NE(message.find("exclusions[0].body2: expected a body other than body1"), std::string::npos) << message;
  message = error_of(replaced(kScene, R"({ "sphere": 1, "resolution": 8 })", R"({ "compound": [] })"));
  EXPECT_NE(message.find("bodies[0].shape.compound[1].shape.compound"), std::string::npos) << message;
  message = error_of(replaced(kScene, R"("scale": [0.3, 0.2, 0.1])", R"("scale": [0.3, 0, 0.1])"));
  EXPECT_NE(message.find("bodies[0].shape.compound[1].scale"), std::string::npos) << message;
  message = error_of(replaced(kScene, R"("position": [0, 0, 0.2],)", R"("place": [0, 0, 0.2],)"));
  EXPECT_NE(message.find("bodies[0].shape.compound[0]"), std::string::npos) << message;
}

TEST(SceneImportFields, RefusesNestedCompounds) {
  const std::string nested = replaced(kScene, R"({ "sphere": 1, "resolution": 8 })",
                                      R"({ "compound": [ { "shape": { "sphere": 1 } } ] })");
  const std::string message = error_of(nested);
  EXPECT_NE(message.find("bodies[0].shape.compound[1].shape: expected a shape other than a compound"),
            std::string::npos) << message;
}

}  // namespace
}  // namespace affix
