// Mesh files other than OBJ through Assimp, on small files written here whose solid is known by hand:
// an ASCII STL and a binary STL of a unit cube (every corner repeated per facet, as STL does), and a
// COLLADA cube placed by a node matrix in centimetres with a Z_UP axis — the file's coordinates are
// kept as written, times the unit, moved by the node. Inline meshes are welded like files.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "affix/geometry/mass_properties.hpp"
#include "affix/geometry/mesh_file.hpp"
#include "affix/geometry/mesh_validation.hpp"
#include "support/mesh_files.hpp"

namespace affix {
namespace {

class MeshFile : public ::testing::Test {
 protected:
  std::filesystem::path dir_ = std::filesystem::temp_directory_path() /
                               ("affix_mesh_file_" + std::to_string(::getpid()) + "_" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  std::filesystem::path ascii_stl() const { return write("cube.stl", test::ascii_stl(test::cube_triangles())); }
  std::filesystem::path binary_stl() const { return write("binary.stl", test::binary_stl(test::cube_triangles())); }
};

void expect_cube(const TriangleMesh& mesh, const Vec3& size, const Vec3& low_corner) {
  EXPECT_FALSE(find_mesh_defect(mesh)) << *find_mesh_defect(mesh);
  EXPECT_EQ(mesh.vertices.size(), 8u);  // corners repeated per facet welded into one
  EXPECT_EQ(mesh.faces.size(), 12u);
  const MassProperties moments = mass_properties(mesh);
  EXPECT_NEAR(moments.volume, size.prod(), 1e-6 * size.prod());
  EXPECT_LT((center_of_mass(moments) - (low_corner + 0.5 * size)).norm(), 1e-6);
}

TEST_F(MeshFile, AsciiStlIsACubeWithItsCornersWelded) {
  expect_cube(load_mesh_file(ascii_stl()), Vec3::Ones(), Vec3::Zero());
  expect_cube(load_mesh_file(ascii_stl(), Vec3(2.0, 3.0, 0.5)), Vec3(2.0, 3.0, 0.5), Vec3::Zero());
}

TEST_F(MeshFile, BinaryStlIsTheSameCube) { expect_cube(load_mesh_file(binary_stl()), Vec3::Ones(), Vec3::Zero()); }

TEST_F(MeshFile, MirroringScaleKeepsTheFacesOutward) {
  // x → −x mirrors the cube onto [−1, 0] × [0, 1]²; the faces are turned so the volume stays positive.
  expect_cube(load_mesh_file(ascii_stl(), Vec3(-1.0, 1.0, 1.0)), Vec3::Ones(), Vec3(-1.0, 0.0, 0.0));
}

TEST_F(MeshFile, ColladaKeepsItsCoordinatesTimesItsUnitMovedByItsNode) {
  // The cube in centimetres (0…100), declared Z_UP, under a node that moves it by (200, 0, 50) cm: in
  // metres the solid is [2, 3] × [0, 1] × [0.5, 1.5], not rotated to Y up.
  const std::string dae = test::collada(test::cube_triangles(), 100.0, 0.01, "Z_UP", "1 0 0 200 0 1 0 0 0 0 1 50 0 0 0 1");
  expect_cube(load_mesh_file(write("cube.dae", dae)), Vec3::Ones(), Vec3(2.0, 0.0, 0.5));
}

TEST_F(MeshFile, ObjStillGoesThroughTheObjReader) {
  EXPECT_FALSE(is_assimp_mesh("rock.OBJ"));
  EXPECT_TRUE(is_assimp_mesh("rock.stl"));
  EXPECT_TRUE(is_assimp_mesh("rock.DAE"));
  // The OBJ reader's strict syntax check, which Assimp does not have, still answers for .obj.
  try {
    load_mesh_file(write("bad.obj", "v 0 0 zero\nf 1 1 1\n"));
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
  }
}

TEST_F(MeshFile, UnreadableFilesSayWhichAndWhy) {
  const auto message = [](const std::filesystem::path& file) {
    try {
      load_mesh_file(file);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string missing = message(dir_ / "missing.stl");
  EXPECT_NE(missing.find("missing.stl: no such file"), std::string::npos) << missing;
  const std::string garbage = message(write("garbage.stl", "this is not a mesh\n"));
  EXPECT_NE(garbage.find("garbage.stl: "), std::string::npos) << garbage;
  EXPECT_NE(garbage.find("Assimp"), std::string::npos) << garbage;
  EXPECT_THROW(load_mesh_file(ascii_stl(), Vec3(1.0, 0.0, 1.0)), std::invalid_argument);
}

TEST(InlineMesh, WeldsRepeatedCornersAndDropsUnusedVertices) {
  std::vector<Vec3> points;
  std::vector<std::array<int, 3>> triangles;
  points.emplace_back(9, 9, 9);  // used by no triangle
  for (const auto& t : test::cube_triangles()) {
    const int i = static_cast<int>(points.size());
    for (const Vec3& v : t) points.push_back(v);
    triangles.push_back({i, i + 1, i + 2});
  }
  expect_cube(inline_mesh(points, triangles, Vec3(1, 1, 2)), Vec3(1, 1, 2), Vec3::Zero());
}

}  // namespace
}  // namespace affix
