// meshes.json read back (io/scene_meshes.hpp), the one reader `affix view` and `affix render` share:
// what write_scene_meshes' format holds comes back, and each kind of bad input is an InputError that
// names the file, the JSON path and what was expected — triangle indices out of range above all,
// which once crashed the renderer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/io/scene_meshes.hpp"

namespace affix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// A tetrahedron body: four vertices, four triangles.
json tetrahedron(const std::string& name) {
  return {{"name", name},
          {"vertices", {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}},
          {"triangles", {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}};
}

json two_bodies() {
  return {{"version", 1}, {"ground", {{"height", -0.5}}}, {"bodies", {tetrahedron("a"), tetrahedron("b")}}};
}

class SceneMeshesReader : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    file_ = fs::temp_directory_path() / ("affix_meshes_" + std::string(info->name()) + "_" +
                                         std::to_string(::getpid()) + ".json");
  }
  void TearDown() override { fs::remove(file_); }

  /// The InputError message reading `text` gives, or "" when it reads.
  std::string error_for(const std::string& text) const {
    std::ofstream(file_, std::ios::binary | std::ios::trunc) << text;
    try {
      read_scene_meshes(file_);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  /// The message for two_bodies() changed by `edit`, without the file name.
  template <typename Edit>
  std::string error_after(Edit edit) const {
    json doc = two_bodies();
    edit(doc);
    const std::string message = error_for(doc.dump());
    EXPECT_TRUE(message.empty() || message.starts_with(file_.string() + ": ")) << message;
    return message.empty() ? message : message.substr(file_.string().size() + 2);
  }

  fs::path file_;
};

TEST_F(SceneMeshesReader, ReadsTheWrittenFormat) {
  std::ofstream(file_) << two_bodies().dump();
  const SceneMeshes meshes = read_scene_meshes(file_);
  EXPECT_EQ(meshes.ground_height, -0.5);
  EXPECT_EQ(meshes.names, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(meshes.meshes.size(), 2u);
  EXPECT_EQ(meshes.meshes[1].vertices[3], Vec3(0, 0, 1));
  EXPECT_EQ(meshes.meshes[1].faces[3], (std::array<int, 3>{1, 2, 3}));

  json no_ground = two_bodies();
  no_ground["ground"] = nullptr;
  std::ofstream(file_, std::ios::trunc) << no_ground.dump();
  EXPECT_FALSE(read_scene_meshes(file_).ground_height);
}

TEST_F(SceneMeshesReader, RefusesTriangleIndicesThatAreNotVertices) {
  const auto index = [&](json value) { return error_after([&](json& d) { d["bodies"][1]["triangles"][5] = value; }); };
  const std::string expected = "bodies[1].triangles[5]: expected a vertex index, a whole number in [0, 4), got ";
  EXPECT_EQ(index(-1), expected + "-1");
  EXPECT_EQ(index(4), expected + "4");
  EXPECT_EQ(index(std::numeric_limits<std::uint64_t>::max()), expected + "18446744073709551615");
  EXPECT_EQ(index(1.0), expected + "1.0");
  EXPECT_EQ(index("1"), expected + "\"1\"");
  EXPECT_EQ(index(nullptr), expected + "null");
}

TEST_F(SceneMeshesReader, RefusesArraysOfTheWrongLengthOrContents) {
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["vertices"].erase(0); }),
            "bodies[0].vertices: expected a multiple of 3 numbers (x, y, z of each vertex), got 11");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["triangles"].push_back(0); }),
            "bodies[0].triangles: expected a multiple of 3 vertex indices (3 per triangle), got 13");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["triangles"] = json::array(); }),
            "bodies[0].triangles: expected a non-empty array of vertex indices i0, j0, k0, i1, ..., got []");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["vertices"][2] = "0"; }),
            "bodies[0].vertices[2]: expected a number, got \"0\"");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["vertices"][2] = 1e300; }),
            "bodies[0].vertices[2]: expected a finite number of magnitude at most 1e12, got 1e+300");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["vertices"] = json::object(); }),
            "bodies[0].vertices: expected a non-empty array of coordinates x0, y0, z0, x1, ..., got {}");
}

TEST_F(SceneMeshesReader, RefusesBadNamesGroundAndStructure) {
  EXPECT_EQ(error_after([](json& d) { d["bodies"][1]["name"] = "a"; }),
            "bodies[1].name: expected a unique body name (bodies[0] has it too), got \"a\"");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][1]["name"] = ""; }), "bodies[1].name: expected a non-empty string, got \"\"");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0].erase("triangles"); }),
            "bodies[0].triangles: required field for a body is missing");
  EXPECT_EQ(error_after([](json& d) { d["bodies"][0]["colour"] = 1; }).substr(0, 36), "bodies[0].colour: unknown field for ");
  EXPECT_EQ(error_after([](json& d) { d["bodies"] = json::array(); }), "bodies: expected a non-empty array of bodies, got []");
  EXPECT_EQ(error_after([](json& d) { d["ground"] = {{"height", "0"}}; }), "ground.height: expected a number, got \"0\"");
  EXPECT_EQ(error_after([](json& d) { d.erase("ground"); }), "ground: required field for meshes.json is missing");
  EXPECT_EQ(error_after([](json& d) { d["version"] = 3; }), "version: expected version 1 or 2 (what `affix run` writes), got 3");
  EXPECT_EQ(error_after([](json& d) { d["meshes"] = json::array(); }).substr(0, 29), "meshes: unknown field for mes");
  EXPECT_EQ(error_after([](json& d) { d = json::array(); }), "(top level): expected an object, got []");
}

/// Version 2, as `affix run` writes it: one tetrahedron shared by bodies a and c, a second mesh for b.
json shared_meshes() {
  json tetra = tetrahedron("");
  tetra.erase("name");
  json flat = {{"vertices", {0, 0, 0, 2, 0, 0, 0, 2, 0}}, {"triangles", {0, 1, 2}}};
  return {{"version", 2},
          {"ground", nullptr},
          {"meshes", {tetra, flat}},
          {"bodies", {{{"name", "a"}, {"mesh", 0}}, {{"name", "b"}, {"mesh", 1}}, {{"name", "c"}, {"mesh", 0}}}}};
}

TEST_F(SceneMeshesReader, ReadsVersionTwoSharedMeshesOnePerBody) {
  std::ofstream(file_) << shared_meshes().dump();
  const SceneMeshes meshes = read_scene_meshes(file_);
  EXPECT_EQ(meshes.names, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(meshes.meshes.size(), 3u);
  EXPECT_EQ(meshes.meshes[0].vertices, meshes.meshes[2].vertices);
  EXPECT_EQ(meshes.meshes[2].faces[3], (std::array<int, 3>{1, 2, 3}));
  EXPECT_EQ(meshes.meshes[1].vertices[1], Vec3(2, 0, 0));
  EXPECT_EQ(meshes.meshes[1].faces.size(), 1u);
}

TEST_F(SceneMeshesReader, RefusesVersionTwoMeshIndicesAndMeshesThatAreNotMeshes) {
  const auto error = [&](auto edit) {
    json doc = shared_meshes();
    edit(doc);
    const std::string message = error_for(doc.dump());
    return message.empty() ? message : message.substr(file_.string().size() + 2);
  };
  EXPECT_EQ(error([](json& d) { d["bodies"][2]["mesh"] = 2; }),
            "bodies[2].mesh: expected a mesh index, a whole number in [0, 2), got 2");
  EXPECT_EQ(error([](json& d) { d["bodies"][0]["mesh"] = -1; }),
            "bodies[0].mesh: expected a mesh index, a whole number in [0, 2), got -1");
  EXPECT_EQ(error([](json& d) { d["bodies"][1].erase("mesh"); }), "bodies[1].mesh: required field for a body is missing");
  EXPECT_EQ(error([](json& d) { d["bodies"][1]["vertices"] = json::array(); }).substr(0, 37),
            "bodies[1].vertices: unknown field for");
  EXPECT_EQ(error([](json& d) { d["meshes"][1]["triangles"][2] = 3; }),
            "meshes[1].triangles[2]: expected a vertex index, a whole number in [0, 3), got 3");
  EXPECT_EQ(error([](json& d) { d["meshes"] = json::array(); }), "meshes: expected a non-empty array of meshes, got []");
  EXPECT_EQ(error([](json& d) { d.erase("meshes"); }), "meshes: required field for meshes.json is missing");
}

TEST_F(SceneMeshesReader, RefusesTextThatIsNotJsonOrNestedTooDeep) {
  EXPECT_NE(error_for("{\"version\": 1, \"bodies\": [").find("invalid JSON at line 1"), std::string::npos);
  EXPECT_NE(error_for(std::string(100'000, '[')).find("nested more than"), std::string::npos);
  EXPECT_NE(error_for("{\"version\": 1e999}").find("invalid JSON"), std::string::npos);
  fs::remove(file_);
  try {
    read_scene_meshes(file_);
    ADD_FAILURE() << "no error for a missing file";
  } catch (const InputError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with(file_.string() + ": cannot read file")) << e.what();
  }
}

}  // namespace
}  // namespace affix
