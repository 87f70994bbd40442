// MuJoCo mesh geoms imported as inline meshes, checked against the mesh file and the XML written here
// rather than against mjModel: a brick written as an STL, scaled by the asset and placed by the geom
// and the body, must have its eight corners exactly where the XML puts them, and the scene `affix
// import` writes must carry them (inline vertices and triangles) through a save and a reload.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "affix/geometry/mesh_file.hpp"
#include "affix/geometry/mesh_validation.hpp"
#include "affix/import/import_model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "scene/scene_files.hpp"
#include "support/mesh_files.hpp"

namespace affix {
namespace {

using test::TempDir;

constexpr double kDeg = std::numbers::pi / 180.0;
const Vec3 kBrick(0.2, 0.1, 0.05);  // the STL's solid: [0, 0.2] × [0, 0.1] × [0, 0.05], off its centre

std::vector<Vec3> brick_corners() {
  std::vector<Vec3> out;
  for (int k = 0; k < 8; ++k) out.emplace_back((k & 1) * kBrick.x(), ((k >> 1) & 1) * kBrick.y(), ((k >> 2) & 1) * kBrick.z());
  return out;
}

/// A binary STL (the one STL MuJoCo reads) of the brick: two outward triangles per face, all but face
/// `skip` (0…5; 1 is the top).
std::string brick_stl(int skip = -1) {
  const std::vector<Vec3> c = brick_corners();  // index = x + 2y + 4z
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {1, 3, 7, 5}, {0, 4, 6, 2}};
  std::vector<std::array<Vec3, 3>> triangles;
  for (int f = 0; f < 6; ++f) {
    if (f == skip) continue;
    const auto& q = quads[f];
    triangles.push_back({c[q[0]], c[q[1]], c[q[2]]});
    triangles.push_back({c[q[0]], c[q[2]], c[q[3]]});
  }
  return test::binary_stl(triangles);
}

constexpr const char* kModel = R"xml(<mujoco model="bricks">
  <asset><mesh name="brick" file="brick.stl" scale="2 1 1"/></asset>
  <worldbody>
    <geom type="plane" size="1 1 .1"/>
    <body name="b" pos="0.1 0.2 1" euler="0 0 30">
      <freejoint/>
      <geom type="mesh" mesh="brick" pos="0.05 0 0" euler="90 0 0"/>
    </body>
  </worldbody>
</mujoco>
)xml";

/// Where the XML puts a corner v of the file: body ∘ geom ∘ asset scale (MJCF euler: degrees, x-y-z
/// intrinsic, so one non-zero angle is one rotation about that axis).
Vec3 expected_world(const Vec3& v) {
  const Mat3 body = Eigen::AngleAxisd(30 * kDeg, Vec3::UnitZ()).toRotationMatrix();
  const Mat3 geom = Eigen::AngleAxisd(90 * kDeg, Vec3::UnitX()).toRotationMatrix();
  return Vec3(0.1, 0.2, 1) + body * (Vec3(0.05, 0, 0) + geom * v.cwiseProduct(Vec3(2, 1, 1)));
}

Vec3 imported_world(const BodyDef& body, const ShapePart& part, const Vec3& v) {
  return body.position + body.rotation * (part.position + part.rotation * v.cwiseProduct(part.scale));
}

TEST(ImportMeshes, MeshGeomLandsWhereTheXmlPutsItsFile) {
  TempDir dir;
  dir.write("brick.stl", brick_stl());
  const ImportedModel imported = import_model_report(dir.write("bricks.xml", kModel));
  EXPECT_FALSE(imported.unmapped.counts().count("mesh geoms"));
  const BodyDef& body = imported.scene.bodies.at(static_cast<std::size_t>(*imported.scene.body_index("b")));
  const auto& compound = std::get<CompoundShape>(body.shape);
  ASSERT_EQ(compound.parts.size(), 1u);
  const auto& mesh = std::get<MeshShape>(compound.parts[0].shape);
  EXPECT_TRUE(mesh.file.empty());
  ASSERT_EQ(mesh.vertices.size(), 8u);  // the STL's per-facet corners welded
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_FALSE(find_mesh_defect(inline_mesh(mesh.vertices, mesh.triangles)));
  for (const Vec3& corner : brick_corners()) {
    double nearest = 1e300;
    for (const Vec3& v : mesh.vertices) nearest = std::min(nearest, (imported_world(body, compound.parts[0], v) - expected_world(corner)).norm());
    EXPECT_LT(nearest, 1e-6) << corner.transpose();  // MuJoCo stores mesh vertices as floats
  }
  // MuJoCo's mass from the mesh's volume at its default density 1000: 0.4 × 0.1 × 0.05 m³.
  EXPECT_NEAR(body.inertial->mass, 1000 * 0.4 * 0.1 * 0.05, 1e-6);
}

TEST(ImportMeshes, InlineMeshSurvivesTheSceneFileAffixImportWrites) {
  TempDir dir;
  dir.write("brick.stl", brick_stl());
  const Scene scene = import_model_report(dir.write("bricks.xml", kModel)).scene;
  const std::filesystem::path saved = dir.path() / "bricks.json";
  save_scene(scene, saved);
  const Scene reloaded = load_scene(saved);
  const auto& a = std::get<MeshShape>(std::get<CompoundShape>(scene.bodies.back().shape).parts[0].shape);
  const auto& b = std::get<MeshShape>(std::get<CompoundShape>(reloaded.bodies.back().shape).parts[0].shape);
  EXPECT_EQ(a.vertices, b.vertices);  // round-trip numbers (17 digits)
  EXPECT_EQ(a.triangles, b.triangles);
}

TEST(ImportMeshes, OpenMeshBecomesItsConvexHullAndIsWarnedAbout) {
  // The brick with its top face missing: not a solid, so the geom becomes MuJoCo's convex hull of it —
  // the closed brick again.
  TempDir dir;
  dir.write("brick.stl", brick_stl(1));
  const ImportedModel imported = import_model_report(dir.write("bricks.xml", kModel));
  const auto& mesh = std::get<MeshShape>(std::get<CompoundShape>(imported.scene.bodies.back().shape).parts[0].shape);
  EXPECT_FALSE(find_mesh_defect(inline_mesh(mesh.vertices, mesh.triangles)));
  EXPECT_EQ(mesh.vertices.size(), 8u);
  EXPECT_EQ(imported.unmapped.counts().at("mesh geoms replaced by their convex hull (their own surface is not a closed solid)"), 1);
}

}  // namespace
}  // namespace affix
