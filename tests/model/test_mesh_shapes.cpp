// Mesh shapes from STL and DAE files (through Assimp) and inline, compiled into bodies: the mass
// follows the solid's volume (a 2 × 1 × 1 box of density 1000 weighs 2000 kg, in every form), and an
// open inline mesh is refused naming its JSON path.
#include <gtest/gtest.h>

#include <string>

#include "affix/error.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "scene/scene_files.hpp"
#include "support/mesh_files.hpp"

namespace affix {
namespace {

using test::TempDir;

TEST(MeshShapes, StlDaeAndInlineBoxesWeighTheirVolume) {
  TempDir dir;
  dir.write("cube.stl", test::ascii_stl(test::cube_triangles()));
  dir.write("cube.dae", test::collada(test::cube_triangles(), 1.0, 1.0, "Y_UP", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"));
  std::string vertices, triangles;
  int n = 0;
  for (const auto& t : test::cube_triangles()) {
    triangles += std::string(n ? ", " : "") + "[" + std::to_string(n) + ", " + std::to_string(n + 1) + ", " + std::to_string(n + 2) + "]";
    for (const Vec3& v : t) vertices += std::string(n++ ? ", " : "") + "[" + std::to_string(v.x()) + ", " + std::to_string(v.y()) + ", " + std::to_string(v.z()) + "]";
  }
  const Scene scene = load_scene(dir.write("s.json", R"json({ "bodies": [
    { "name": "stl", "shape": { "mesh": { "file": "cube.stl", "scale": [2, 1, 1] } } },
    { "name": "dae", "shape": { "mesh": { "file": "cube.dae", "scale": [2, 1, 1] } }, "position": [3, 0, 0] },
    { "name": "inline", "shape": { "mesh": { "vertices": [)json" + vertices + R"json(], "triangles": [)json" + triangles +
                                                          R"json(], "scale": [2, 1, 1] } }, "position": [6, 0, 0] } ] })json"));
  const Model model = compile(scene);
  for (const ModelBody& body : model.bodies) EXPECT_NEAR(body.mass, 2000.0, 1e-9) << body.name;
}

TEST(MeshShapes, OpenInlineMeshIsRefusedAtItsPath) {
  TempDir dir;
  const Scene scene = load_scene(dir.write("s.json", R"json({ "bodies": [ { "name": "open", "shape": { "mesh": {
      "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], "triangles": [[0, 2, 1], [0, 1, 3], [0, 3, 2]] } } } ] })json"));
  try {
    compile(scene);
    FAIL() << "compiled";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bodies[0].shape.mesh: expected a closed, manifold, outward-oriented mesh"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace affix
