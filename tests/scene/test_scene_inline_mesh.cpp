// The inline form of the `mesh` shape (README "bodies[].shape"), which `affix import` writes for an
// imported model's meshes: read, refused with its JSON path when wrong, written back unchanged.
#include <gtest/gtest.h>

#include <string>

#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "scene/scene_files.hpp"

namespace affix {
namespace {

using test::TempDir;

std::string scene_with(const std::string& mesh) {
  return R"json({ "bodies": [ { "name": "tet", "shape": { "mesh": )json" + mesh + R"json( } } ] })json";
}

constexpr const char* kTetrahedron =
    R"json({ "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
             "triangles": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], "scale": 2 })json";

std::string error_of(const std::string& mesh) {
  TempDir dir;
  try {
    load_scene(dir.write("s.json", scene_with(mesh)));
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for " << mesh;
  return {};
}

TEST(SceneInlineMesh, ReadsVerticesTrianglesAndScale) {
  TempDir dir;
  const Scene scene = load_scene(dir.write("s.json", scene_with(kTetrahedron)));
  const auto& mesh = std::get<MeshShape>(scene.bodies[0].shape);
  EXPECT_TRUE(mesh.file.empty());
  ASSERT_EQ(mesh.vertices.size(), 4u);
  EXPECT_EQ(mesh.vertices[3], Vec3(0, 0, 1));
  ASSERT_EQ(mesh.triangles.size(), 4u);
  EXPECT_EQ(mesh.triangles[1], (std::array<int, 3>{0, 1, 3}));
  EXPECT_EQ(mesh.scale, Vec3::Constant(2));
}

TEST(SceneInlineMesh, WritesItBackUnchanged) {
  TempDir dir;
  const Scene scene = load_scene(dir.write("s.json", scene_with(kTetrahedron)));
  save_scene(scene, dir.path() / "saved.json");
  const Scene again = load_scene(dir.path() / "saved.json");
  const auto &a = std::get<MeshShape>(scene.bodies[0].shape), &b = std::get<MeshShape>(again.bodies[0].shape);
  EXPECT_EQ(a.vertices, b.vertices);
  EXPECT_EQ(a.triangles, b.triangles);
  EXPECT_EQ(a.scale, b.scale);
  EXPECT_TRUE(b.file.empty());
}

TEST(SceneInlineMesh, RefusesWhatIsWrongAtItsPath) {
  EXPECT_NE(error_of(R"({ "file": "a.obj", "vertices": [[0, 0, 0]], "triangles": [[0, 0, 0]] })")
                .find("bodies[0].shape.mesh: expected either file or vertices and triangles"),
            std::string::npos);
  EXPECT_NE(error_of(R"({ "scale": 1 })").find("bodies[0].shape.mesh: expected either file or vertices and triangles"),
            std::string::npos);
  EXPECT_NE(error_of(R"({ "vertices": [[0, 0, 0]] })").find("bodies[0].shape.mesh.triangles"), std::string::npos);
  EXPECT_NE(error_of(R"({ "vertices": [], "triangles": [[0, 1, 2]] })").find("bodies[0].shape.mesh.vertices: expected a non-empty array"),
            std::string::npos);
  const std::string bad_point = error_of(R"({ "vertices": [[0, 0, 0], [1, 0], [0, 1, 0]], "triangles": [[0, 1, 2]] })");
  EXPECT_NE(bad_point.find("bodies[0].shape.mesh.vertices[1]: expected"), std::string::npos) << bad_point;
  const std::string out_of_range = error_of(R"({ "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 2], [0, 1, 3]] })");
  EXPECT_NE(out_of_range.find("bodies[0].shape.mesh.triangles[1]: expected an array of 3 integers from 0 to 2"), std::string::npos)
      << out_of_range;
  EXPECT_NE(error_of(R"({ "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 1.5]] })").find("mesh.triangles[0]: expected"),
            std::string::npos);
}

}  // namespace
}  // namespace affix
