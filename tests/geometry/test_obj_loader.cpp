// OBJ files written to a temporary directory: polygons, groups, duplicated vertices, scale, errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "affix/geometry/aabb.hpp"
#include "affix/geometry/mass_properties.hpp"
#include "affix/geometry/mesh_validation.hpp"
#include "affix/geometry/obj_loader.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;

/// A fresh directory per test, removed afterwards.
class ObjLoader : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("affix_obj_" + std::string(info->name()) + "_" +
                                        std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  fs::path dir_;
};

/// The unit cube [0, 1]³ with one quad per side, each side in its own group with its own four
/// vertices (24 in all, every corner three times), plus one vertex no face uses.
const char* kCubeWithDuplicatedVertices = R"(# unit cube, vertices repeated per side
o cube
g bottom
v 0 0 0
v 0 1 0
v 1 1 0
v 1 0 0
f 1 2 3 4
g top
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 5 6 7 8
g front
v 0 0 0
v 1 0 0
v 1 0 1
v 0 0 1
f 9 10 11 12
g back
v 0 1 0
v 0 1 1
v 1 1 1
v 1 1 0
f 13 14 15 16
g left
v 0 0 0
v 0 0 1
v 0 1 1
v 0 1 0
f 17 18 19 20
g right
v 1 0 0
v 1 1 0
v 1 1 1
v 1 0 1
vn 1 0 0
f 21//1 22//1 23//1 24//1
v 5 5 5
)";

TEST_F(ObjLoader, TriangulatesMergesGroupsAndWeldsDuplicates) {
  const TriangleMesh mesh = load_obj(write("cube.obj", kCubeWithDuplicatedVertices), Vec3::Ones());
  EXPECT_EQ(mesh.vertices.size(), 8u);   // 24 welded to the 8 corners; the unused vertex dropped
  EXPECT_EQ(mesh.faces.size(), 12u);     // 6 quads, two triangles each
  EXPECT_EQ(find_mesh_defect(mesh), std::nullopt);
  EXPECT_NEAR(mass_properties(mesh).volume, 1.0, 1e-14);
  // File coordinates are kept: the first vertex is the file's first, at the origin.
  EXPECT_EQ(mesh.vertices.front(), Vec3::Zero());
}

TEST_F(ObjLoader, AppliesAScalePerAxis) {
  const TriangleMesh mesh = load_obj(write("cube.obj", kCubeWithDuplicatedVertices), Vec3(2.0, 3.0, 0.5));
  EXPECT_EQ(find_mesh_defect(mesh), std::nullopt);
  EXPECT_NEAR(mass_properties(mesh).volume, 3.0, 1e-14);
  const Aabb box = aabb_of(mesh.vertices);
  EXPECT_EQ(box.min, Vec3::Zero());
  EXPECT_EQ(box.max, Vec3(2.0, 3.0, 0.5));
}

TEST_F(ObjLoader, MirroringScaleKeepsFacesOutward) {
  const TriangleMesh mesh = load_obj(write("cube.obj", kCubeWithDuplicatedVertices), Vec3(-1.0, 1.0, 1.0));
  EXPECT_EQ(find_mesh_defect(mesh), std::nullopt);
  EXPECT_NEAR(mass_properties(mesh).volume, 1.0, 1e-14);
  EXPECT_EQ(aabb_of(mesh.vertices).min, Vec3(-1.0, 0.0, 0.0));
}

TEST_F(ObjLoader, ReadsRelativeIndicesAndTriangles) {
  // A tetrahedron with negative (relative) indices: -1 is the latest vertex.
  const TriangleMesh mesh = load_obj(write("tet.obj",
                                           "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                                           "f -4 -2 -3\nf -4 -3 -1\nf -4 -1 -2\nf -3 -2 -1\n"),
                                     Vec3::Ones());
  EXPECT_EQ(mesh.vertices.size(), 4u);
  EXPECT_EQ(find_mesh_defect(mesh), std::nullopt);
  EXPECT_NEAR(mass_properties(mesh).volume, 1.0 / 6.0, 1e-15);
}

/// The runtime_error message of loading `path`, or "" when it loads.
std::string load_error(const fs::path& path) {
  try {
    load_obj(path, Vec3::Ones());
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST_F(ObjLoader, FileWithoutFacesIsAnError) {
  EXPECT_EQ(load_error(write("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n")), "the file has no faces");
  EXPECT_EQ(load_error(write("empty.obj", "")), "the file has no faces");
}

TEST_F(ObjLoader, MissingFileIsAnError) {
  EXPECT_EQ(load_error(dir_ / "missing.obj"), "no such file");
  EXPECT_EQ(load_error(dir_), "not a regular file");
}

TEST_F(ObjLoader, NonNumbersAreRefusedNotReadAsZero) {
  // tinyobjloader alone reads each of these as a vertex with a 0 in it, and the mesh changes silently.
  for (const std::string vertex : {"v nan 0 0", "v inf 1 2", "v abc 0 0", "v 1 1"}) {
    SCOPED_TRACE(vertex);
    const fs::path path = write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n" + vertex + "\nf 1 3 2\nf 1 2 4\n" +
                                               "f 1 4 3\nf 2 3 4\n");
    const std::string message = load_error(path);
    EXPECT_EQ(message.rfind(path.string() + " line 4: expected ", 0), 0u) << message;
  }
}

TEST_F(ObjLoader, TrailingCommentOnAFaceLineIsAComment) {
  // tinyobjloader alone failed on `f ... #c` with its own "Failed parse 'f' line" text.
  const TriangleMesh mesh = load_obj(
      write("tet.obj", "v 0 0 0\nv 1 0 0 # x\nv 0 1 0\nv 0 0 1\nf 1 3 2 #c\nf 1 2 4#\nf 1 4 3\nf 2 3 4 # end\n"),
      Vec3::Ones());
  EXPECT_EQ(mesh.faces.size(), 4u);
}

TEST_F(ObjLoader, BadFaceCornerNamesTheFileLineAndToken) {
  const fs::path path = write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1/x 2 4\n");
  const std::string message = load_error(path);
  EXPECT_EQ(message, path.string() + " line 6: expected a corner v, v/vt, v//vn or v/vt/vn of non-zero integers, got '1/x'");
  EXPECT_EQ(message.find("Failed parse"), std::string::npos);
}

TEST_F(ObjLoader, FaceIndexOutOfRangeIsRefused) {
  // A quad with a bad index was dropped by tinyobjloader with only a warning.
  const fs::path path = write("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3 9\n");
  EXPECT_NE(load_error(path).find(" line 5: expected a vertex index from 1 to 4"), std::string::npos)
      << load_error(path);
}

TEST_F(ObjLoader, BadScaleIsRefused) {
  const fs::path path = write("cube.obj", kCubeWithDuplicatedVertices);
  EXPECT_THROW(load_obj(path, Vec3(1.0, 0.0, 1.0)), std::invalid_argument);
  EXPECT_THROW(load_obj(path, Vec3(1.0, std::numeric_limits<double>::infinity(), 1.0)),
               std::invalid_argument);
}

}  // namespace
}  // namespace affix
