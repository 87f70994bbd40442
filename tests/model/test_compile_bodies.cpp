// Bodies built from a scene (what `affix validate`, `info` and `run` all do): derived mass properties
// that no solver could use, meshes beyond the scene's triangle budget and bad OBJ files are refused
// with the scene file, the JSON path and what was expected (DESIGN §4).
#include <gtest/gtest.h>

#include <string>

#include "affix/model/model.hpp"
#include "affix/model/body_mesh.hpp"
#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

/// The message of building the bodies of `text` (a failure if none), checked to be one line.
std::string build_error(const TempDir& dir, const std::string& text) {
  const auto file = dir.write("scene.json", text);
  try {
    compile_bodies(load_scene(file));
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << message;
    return message;
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return {};
}

void expect_build_error(const std::string& text, const std::string& path, const std::string& word) {
  TempDir dir;
  const std::string message = build_error(dir, text);
  EXPECT_NE(message.find(": " + path + ": "), std::string::npos) << "path " << path << " not in: " << message;
  EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
}

std::vector<ModelBody> build(const std::string& text) {
  TempDir dir;
  return compile_bodies(load_scene(dir.write("scene.json", text)));
}

std::string body_scene(const std::string& body, const std::string& settings = "{}") {
  return R"({ "settings": )" + settings + R"(, "bodies": [ )" + body + " ] }";
}

// ---------------------------------------------------------------- mass properties

TEST(BodyBuilder, MassWhoseWeightOverflowsIsRefused) {
  // 1e308 kg passed validate and failed only in the run, with exit 1.
  expect_build_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "mass": 1e308 })"), "bodies[0].mass",
                     "weight m·|g| is finite");
  EXPECT_NO_THROW(build(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "mass": 1e300 })")));
  // The weight needs gravity: without it the same mass is usable.
  expect_build_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "mass": 10 })",
                                R"({ "gravity": [0, 1e308, -1e308] })"),
                     "bodies[0].mass", "settings.gravity");
}

TEST(BodyBuilder, DensityGivingNoUsableMassIsRefused) {
  // 5e-324 kg/m³ gave a zero (or subnormal) mass.
  expect_build_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "density": 5e-324 })"),
                     "bodies[0].density", "normal, positive mass");
  expect_build_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "density": 1e308 })"),
                     "bodies[0].density", "normal, positive mass");
  expect_build_error(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "mass": 5e-324 })"),
                     "bodies[0].mass", "normal, positive mass");
  EXPECT_NO_THROW(build(body_scene(R"({ "name": "a", "shape": { "sphere": 1 }, "density": 1e-290 })")));
}

TEST(BodyBuilder, ThinShapesWithinTheInertiaRatioAreKept) {
  // A needle thin enough to pass kMinInertiaRatio already fails the mesh's volume check, so these are
  // the thinnest shapes a scene can have (see find_mass_defect for the ratio itself).
  EXPECT_NO_THROW(build(body_scene(R"({ "name": "a", "shape": { "box": [1, 1, 1e-6] } })")));
  EXPECT_NO_THROW(build(body_scene(R"({ "name": "a", "shape": { "box": [1, 1e-5, 1e-5] }, "mass": 1 })")));
  expect_build_error(body_scene(R"({ "name": "a", "shape": { "box": [1, 1e-7, 1e-7] } })"),
                     "bodies[0].shape.box", "volume");
}

TEST(BodyBuilder, MassPropertiesOfAValidBodyAreKept) {
  const auto bodies = build(body_scene(R"({ "name": "a", "shape": { "box": [1, 2, 3] }, "density": 2 })"));
  EXPECT_DOUBLE_EQ(bodies[0].mass, 12.0);
  EXPECT_NEAR(bodies[0].volume, 6.0, 1e-12);
}

// ---------------------------------------------------------------- triangle budget

TEST(BodyBuilder, TriangleBudgetAdmitsAMillionLinkChain) {
  static_assert(kMaxSceneTriangles >= 144 * 1'000'000, "a 10⁶-link chain of 144-triangle capsules");
}

TEST(BodyBuilder, SceneOverTheTriangleBudgetIsRefusedBeforeMeshing) {
  // 17 boxes at resolution 1000 are 2.04·10⁸ triangles: refused at the 17th, before any is meshed.
  std::string bodies;
  for (int i = 0; i < 17; ++i) {
    bodies += std::string(i ? ", " : "") + R"({ "name": "b)" + std::to_string(i) +
              R"(", "shape": { "box": [1, 1, 1], "resolution": 1000 }, "position": [)" + std::to_string(2 * i) +
              ", 0, 0] }";
  }
  expect_build_error(R"({ "bodies": [ )" + bodies + " ] }", "bodies[16].shape",
                     "at most 200000000 triangles in the whole scene, got 204000000");
}

// ---------------------------------------------------------------- OBJ files

TEST(BodyBuilder, BadObjNamesTheJsonPathTheFileTheLineAndTheToken) {
  TempDir dir;
  dir.write("m.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const std::string message =
      build_error(dir, body_scene(R"({ "name": "a", "shape": { "mesh": { "file": "m.obj" } } })"));
  EXPECT_NE(message.find(": bodies[0].shape.mesh.file: "), std::string::npos) << message;
  EXPECT_NE(message.find("m.obj line 4: expected a finite number as vertex coordinate, got 'nan'"),
            std::string::npos)
      << message;
}

TEST(BodyBuilder, ObjFaceIndexOutOfRangeIsRefused) {
  TempDir dir;
  dir.write("m.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 7\n");
  const std::string message =
      build_error(dir, body_scene(R"({ "name": "a", "shape": { "mesh": { "file": "m.obj" } } })"));
  EXPECT_NE(message.find(": bodies[0].shape.mesh.file: "), std::string::npos) << message;
  EXPECT_NE(message.find("line 8: expected a vertex index from 1 to 4"), std::string::npos) << message;
}

TEST(BodyBuilder, ObjFarFromTheOriginWithOverflowingMomentsIsRefused) {
  // A unit tetrahedron 1e200 away: its second moment about the origin, V·|r|², overflows.
  TempDir dir;
  dir.write("far.obj", "v 1e200 0 0\nv 1.0000000000000002e200 0 0\nv 1e200 1e184 0\nv 1e200 0 1e184\n"
                       "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const std::string message =
      build_error(dir, body_scene(R"({ "name": "a", "shape": { "mesh": { "file": "far.obj" } }, "mass": 1 })"));
  EXPECT_NE(message.find("bodies[0]"), std::string::npos) << message;
}

}  // namespace
}  // namespace affix
