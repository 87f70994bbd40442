// A URDF laid out as ROS packages are — robot_description/urdf/robot.urdf with its meshes in
// robot_description/meshes/ named by package:// — with a COLLADA collision mesh (which MuJoCo 2.2.2
// cannot read) and a binary STL beside the URDF (which it reads itself). It imports: the DAE is
// converted through Assimp and placed where the URDF puts it, the STL is left to MuJoCo, the files
// are not touched; a DAE that is nowhere is refused naming the link and the mesh.
#include <gtest/gtest.h>

#include <string>

#include "affix/error.hpp"
#include "affix/import/import_model.hpp"
#include "scene/scene_files.hpp"
#include "support/files.hpp"
#include "support/mesh_files.hpp"

namespace affix {
namespace {

using test::TempDir;

std::string robot(const std::string& arm_mesh) {
  return R"(<robot name="r">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0.3 0 0"/><geometry><mesh filename="plate.stl"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename=")" + arm_mesh + R"("/></geometry></visual>
    <collision><origin xyz="0 0 0.5"/><geometry><mesh filename=")" + arm_mesh + R"(" scale="0.5 0.5 0.5"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.2"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
)";
}

/// The package: the URDF, a 10 cm cube in centimetres as DAE under meshes/, a 5 cm STL plate beside it.
std::filesystem::path write_package(const TempDir& dir, const std::string& arm_mesh) {
  dir.write("robot_description/meshes/cube.dae", test::collada(test::cube_triangles(), 10.0, 0.01, "Z_UP", "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"));
  std::vector<std::array<Vec3, 3>> plate = test::cube_triangles();
  for (auto& t : plate)
    for (Vec3& v : t) v *= 0.05;
  dir.write("robot_description/urdf/plate.stl", test::binary_stl(plate));
  return dir.write("robot_description/urdf/robot.urdf", robot(arm_mesh));
}

/// The centre of a mesh part's distinct vertices in the world (a box's centre).
Vec3 world_centre(const BodyDef& body) {
  const auto& part = std::get<CompoundShape>(body.shape).parts.at(0);
  const auto& mesh = std::get<MeshShape>(part.shape);
  Vec3 sum = Vec3::Zero();
  for (const Vec3& v : mesh.vertices) sum += body.position + body.rotation * (part.position + part.rotation * v.cwiseProduct(part.scale));
  return sum / static_cast<double>(mesh.vertices.size());
}

TEST(ImportUrdfMeshes, ColladaUnderPackagePathIsConvertedAndPlaced) {
  TempDir dir;
  const auto urdf = write_package(dir, "package://robot_description/meshes/cube.dae");
  const std::string before = test::read_file(urdf);
  const ImportedModel imported = import_model_report(urdf);
  const Scene& scene = imported.scene;
  // The arm's collision cube: 10 cm × 0.5, raised 0.5 m in the link, whose frame is 0.2 m up.
  const BodyDef& arm = scene.bodies.at(static_cast<std::size_t>(*scene.body_index("arm")));
  EXPECT_EQ(std::get<MeshShape>(std::get<CompoundShape>(arm.shape).parts.at(0).shape).vertices.size(), 8u);
  EXPECT_LT((world_centre(arm) - Vec3(0.025, 0.025, 0.725)).norm(), 1e-6);
  // The base, fused into the world by MuJoCo, keeps its STL plate: [0.3, 0.35] × [0, 0.05]².
  const BodyDef& world = scene.bodies.at(static_cast<std::size_t>(*scene.body_index("worldbody")));
  EXPECT_LT((world_centre(world) - Vec3(0.325, 0.025, 0.025)).norm(), 1e-6);
  EXPECT_EQ(test::read_file(urdf), before);  // the model's files are read, never rewritten
}

TEST(ImportUrdfMeshes, MissingColladaIsRefusedNamingLinkAndMesh) {
  TempDir dir;
  const auto urdf = write_package(dir, "package://robot_description/meshes/nowhere.dae");
  try {
    import_model_report(urdf);
    FAIL() << "imported";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(urdf.string() + ": link 'arm': mesh 'package://robot_description/meshes/nowhere.dae': no such file"),
              std::string::npos) << message;
  }
}

}  // namespace
}  // namespace affix
