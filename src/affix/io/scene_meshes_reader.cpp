// read_scene_meshes: meshes.json back into meshes that can be drawn without another check. The file is
// untrusted (hand-edited, truncated, or not ours at all): every index is checked against its vertex
// count before anything is built from it, and every count against the limits of scene_meshes.hpp
// before it decides an allocation. Arrays are walked as raw JSON and a located JsonReader is made
// only for the element that fails, so a million vertices cost no million path strings.
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "affix/io/json_file.hpp"
#include "affix/io/scene_meshes.hpp"
#include "affix/scene/json_reader.hpp"

namespace affix {

namespace {

using nlohmann::json;

constexpr int kOldestVersion = 1, kVersion = 2;

/// Running totals over all bodies, held against kMaxMeshVertices and kMaxMeshTriangles.
struct Totals {
  std::size_t vertices = 0;
  std::size_t triangles = 0;
};

const std::string kCoordinate = "a finite number of magnitude at most 1e12";

std::optional<double> read_ground(const JsonReader& value) {
  if (value.json().is_null()) return std::nullopt;
  const ObjectReader ground(value, {"height"});
  const JsonReader height = ground.at("height");
  const double h = height.number();
  if (!(std::abs(h) <= kMaxMeshCoordinate)) height.expected(kCoordinate);
  return h;
}

std::vector<Vec3> read_vertices(const JsonReader& value, Totals& totals) {
  const json& items = value.json();
  if (!items.is_array() || items.empty()) value.expected("a non-empty array of coordinates x0, y0, z0, x1, ...");
  if (items.size() % 3 != 0)
    value.fail("expected a multiple of 3 numbers (x, y, z of each vertex), got " + std::to_string(items.size()));
  const std::size_t count = items.size() / 3;
  totals.vertices += count;
  if (totals.vertices > kMaxMeshVertices)
    value.fail("more than " + std::to_string(kMaxMeshVertices) + " vertices over all bodies (the most this reader takes)");
  std::vector<Vec3> vertices(count);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json& item = items[i];
    if (!item.is_number()) value.element(i).expected("a number");
    const double v = item.get<double>();
    if (!(std::abs(v) <= kMaxMeshCoordinate)) value.element(i).expected(kCoordinate);
    vertices[i / 3][static_cast<Eigen::Index>(i % 3)] = v;
  }
  return vertices;
}

/// `item` as a vertex index below `count`, or nothing.
std::optional<int> vertex_index(const json& item, std::size_t count) {  // also a mesh index
  if (item.is_number_unsigned()) {
    const auto i = item.get<std::uint64_t>();
    if (i < count) return static_cast<int>(i);
  } else if (item.is_number_integer()) {
    const auto i = item.get<std::int64_t>();
    if (i >= 0 && static_cast<std::uint64_t>(i) < count) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::vector<std::array<int, 3>> read_triangles(const JsonReader& value, std::size_t vertex_count, Totals& totals) {
  const json& items = value.json();
  if (!items.is_array() || items.empty()) value.expected("a non-empty array of vertex indices i0, j0, k0, i1, ...");
  if (items.size() % 3 != 0)
    value.fail("expected a multiple of 3 vertex indices (3 per triangle), got " + std::to_string(items.size()));
  const std::size_t count = items.size() / 3;
  totals.triangles += count;
  if (totals.triangles > kMaxMeshTriangles)
    value.fail("more than " + std::to_string(kMaxMeshTriangles) + " triangles over all bodies (the most this reader takes)");
  std::vector<std::array<int, 3>> faces(count);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::optional<int> index = vertex_index(items[i], vertex_count);
    if (!index) value.element(i).expected("a vertex index, a whole number in [0, " + std::to_string(vertex_count) + ")");
    faces[i / 3][i % 3] = *index;
  }
  return faces;
}

/// Version 2's shared meshes, each `{"vertices", "triangles"}`.
std::vector<TriangleMesh> read_shared_meshes(const JsonReader& meshes) {
  if (!meshes.json().is_array() || meshes.json().empty()) meshes.expected("a non-empty array of meshes");
  std::vector<TriangleMesh> out;
  Totals totals;  // the distinct meshes alone; the bodies' copies are counted again below
  for (std::size_t k = 0; k < meshes.json().size(); ++k) {
    const ObjectReader mesh(meshes.element(k), {"vertices", "triangles"}, "a mesh");
    TriangleMesh m;
    m.vertices = read_vertices(mesh.at("vertices"), totals);
    m.faces = read_triangles(mesh.at("triangles"), m.vertices.size(), totals);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

SceneMeshes read_scene_meshes(const std::filesystem::path& file) {
  const json root = read_json_file(file, kMaxMeshesFileBytes);
  const JsonReader doc(root, file);
  const JsonReader version = ObjectReader(doc).at("version");
  const int v = version.integer();
  if (v < kOldestVersion || v > kVersion)
    version.expected("version 1 or 2 (what `affix run` writes)");
  const ObjectReader top = v == 1 ? ObjectReader(doc, {"version", "ground", "bodies"}, "meshes.json")
                                  : ObjectReader(doc, {"version", "ground", "meshes", "bodies"}, "meshes.json");

  SceneMeshes out;
  out.ground_height = read_ground(top.at("ground"));
  std::vector<TriangleMesh> shared;
  if (v == 2) shared = read_shared_meshes(top.at("meshes"));
  const JsonReader bodies = top.at("bodies");
  if (!bodies.json().is_array() || bodies.json().empty()) bodies.expected("a non-empty array of bodies");
  std::unordered_map<std::string, std::size_t> seen;  // name → its body, for the duplicate's message
  Totals totals;
  for (std::size_t b = 0; b < bodies.json().size(); ++b) {
    const ObjectReader body(bodies.element(b), v == 1 ? std::vector<std::string_view>{"name", "vertices", "triangles"}
                                                      : std::vector<std::string_view>{"name", "mesh"},
                            "a body");
    const JsonReader name = body.at("name");
    const auto [it, inserted] = seen.emplace(name.non_empty_string(), b);
    if (!inserted) name.expected("a unique body name (bodies[" + std::to_string(it->second) + "] has it too)");
    TriangleMesh mesh;
    if (v == 1) {
      mesh.vertices = read_vertices(body.at("vertices"), totals);
      mesh.faces = read_triangles(body.at("triangles"), mesh.vertices.size(), totals);
    } else {
      const JsonReader index = body.at("mesh");
      const std::optional<int> k = vertex_index(index.json(), shared.size());
      if (!k) index.expected("a mesh index, a whole number in [0, " + std::to_string(shared.size()) + ")");
      const TriangleMesh& source = shared[static_cast<std::size_t>(*k)];
      totals.vertices += source.vertices.size(), totals.triangles += source.faces.size();
      if (totals.vertices > kMaxMeshVertices || totals.triangles > kMaxMeshTriangles)
        index.fail("more than " + std::to_string(kMaxMeshVertices) + " vertices or " +
                   std::to_string(kMaxMeshTriangles) + " triangles over all bodies (the most this reader takes)");
      mesh = source;
    }
    out.names.push_back(it->first);
    out.meshes.push_back(std::move(mesh));
  }
  return out;
}

}  // namespace affix
