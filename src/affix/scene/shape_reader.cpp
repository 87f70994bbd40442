#include "affix/scene/shape_reader.hpp"

#include <cstdint>
#include <optional>
#include <string>

#include "affix/scene/body_reader.hpp"

namespace affix {

namespace {

constexpr std::string_view kShapeKinds[] = {"box", "sphere", "capsule", "cylinder", "torus", "mesh", "compound"};
constexpr const char* kOneShape = "exactly one of box, sphere, capsule, cylinder, torus, mesh, compound";

/// Three positive numbers, e.g. box edge lengths or a per-axis mesh scale.
Vec3 positive_vec3(const JsonReader& value) {
  if (!value.is_array() || value.size() != 3) value.expected("an array of 3 positive numbers");
  const auto items = value.array(3);
  return {items[0].positive(), items[1].positive(), items[2].positive()};
}

/// Segments around; fewer than `min` cannot make a closed surface of the right topology, and more than
/// kMaxResolution would take more memory than any scene should (a box at 10⁴ is 1.2·10⁹ triangles).
int read_resolution(const std::optional<JsonReader>& value, int min, int fallback) {
  if (!value) return fallback;
  const int resolution = value->integer_at_least(min);
  if (resolution > kMaxResolution) {
    value->expected("an integer from " + std::to_string(min) + " to " + std::to_string(kMaxResolution));
  }
  return resolution;
}

BoxShape read_box(const JsonReader& value, const std::optional<JsonReader>& resolution) {
  BoxShape box;
  box.size = positive_vec3(value);
  box.resolution = read_resolution(resolution, 1, box.resolution);
  return box;
}

SphereShape read_sphere(const JsonReader& value, const std::optional<JsonReader>& resolution) {
  SphereShape sphere;
  sphere.radius = value.positive();
  sphere.resolution = read_resolution(resolution, 3, sphere.resolution);
  return sphere;
}

CapsuleShape read_capsule(const JsonReader& value, const std::optional<JsonReader>& resolution) {
  const ObjectReader obj(value, {"radius", "length"}, "a capsule");
  CapsuleShape capsule;
  capsule.radius = obj.at("radius").positive();
  capsule.length = obj.at("length").non_negative();  // 0: a sphere
  capsule.resolution = read_resolution(resolution, 3, capsule.resolution);
  return capsule;
}

CylinderShape read_cylinder(const JsonReader& value, const std::optional<JsonReader>& resolution) {
  const ObjectReader obj(value, {"radius", "length"}, "a cylinder");
  CylinderShape cylinder;
  cylinder.radius = obj.at("radius").positive();
  cylinder.length = obj.at("length").positive();
  cylinder.resolution = read_resolution(resolution, 3, cylinder.resolution);
  return cylinder;
}

TorusShape read_torus(const JsonReader& value, const std::optional<JsonReader>& resolution) {
  const ObjectReader obj(value, {"major", "minor"}, "a torus");
  TorusShape torus;
  torus.minor = obj.at("minor").positive();
  const JsonReader major = obj.at("major");
  torus.major = major.number();
  // major ≤ minor would make the tube pass through the axis and the surface self-intersect.
  if (!(torus.major > torus.minor)) {
    major.expected("a number greater than minor (" + obj.at("minor").render() + ")");
  }
  // The minor circle gets half the segments, and needs at least two.
  torus.resolution = read_resolution(resolution, 4, torus.resolution);
  return torus;
}

/// `vertices`: an array of [x, y, z].
std::vector<Vec3> read_vertices(const JsonReader& value) {
  if (!value.is_array() || value.size() == 0) value.expected("a non-empty array of [x, y, z] points");
  std::vector<Vec3> out;
  out.reserve(value.size());
  for (const JsonReader& item : value.array()) out.push_back(item.vec3());
  return out;
}

/// `triangles`: an array of [i, j, k], 0-based indices into `vertices`.
std::vector<std::array<int, 3>> read_triangles(const JsonReader& value, std::size_t vertex_count) {
  if (!value.is_array() || value.size() == 0) value.expected("a non-empty array of [i, j, k] vertex indices");
  std::vector<std::array<int, 3>> out;
  out.reserve(value.size());
  const std::string what = "an array of 3 integers from 0 to " + std::to_string(vertex_count - 1) +
                           " (0-based indices into vertices)";
  for (const JsonReader& item : value.array()) {
    if (!item.is_array() || item.size() != 3) item.expected(what);
    std::array<int, 3> tri{};
    const auto indices = item.array(3);
    for (std::size_t k = 0; k < 3; ++k) {
      const JsonReader& i = indices[k];
      if (!i.is_integral() || i.int64() < 0 || i.int64() >= static_cast<std::int64_t>(vertex_count)) {
        item.expected(what);
      }
      tri[k] = static_cast<int>(i.int64());
    }
    out.push_back(tri);
  }
  return out;
}

MeshShape read_mesh(const JsonReader& value, const std::filesystem::path& scene_dir) {
  const ObjectReader obj(value, {"file", "scale", "vertices", "triangles"}, "a mesh");
  MeshShape mesh;
  const bool inline_mesh = obj.has("vertices") || obj.has("triangles");
  if (inline_mesh == obj.has("file")) value.expected("either file or vertices and triangles");
  if (inline_mesh) {
    mesh.vertices = read_vertices(obj.at("vertices"));
    mesh.triangles = read_triangles(obj.at("triangles"), mesh.vertices.size());
  } else {
    mesh.file = (scene_dir / obj.at("file").non_empty_string()).lexically_normal();
  }
  if (auto scale = obj.find("scale")) {
    mesh.scale = scale->is_number() ? Vec3::Constant(scale->positive()) : positive_vec3(*scale);
  }
  return mesh;
}

ShapePart read_part(const JsonReader& value, const std::filesystem::path& scene_dir) {
  const ObjectReader obj(value, {"shape", "position", "rotation", "scale"}, "a compound part");
  ShapePart part;
  const JsonReader shape = obj.at("shape");
  part.shape = read_shape(shape, scene_dir);
  if (std::holds_alternative<CompoundShape>(part.shape)) {
    shape.expected("a shape other than a compound (parts do not nest)");
  }
  if (auto v = obj.find("position")) part.position = v->vec3();
  if (auto v = obj.find("rotation")) part.rotation = read_rotation(*v);
  if (auto v = obj.find("scale")) part.scale = positive_vec3(*v);
  return part;
}

CompoundShape read_compound(const JsonReader& value, const std::filesystem::path& scene_dir) {
  CompoundShape compound;
  for (const JsonReader& item : value.non_empty_array()) compound.parts.push_back(read_part(item, scene_dir));
  return compound;
}

}  // namespace

Shape read_shape(const JsonReader& value, const std::filesystem::path& scene_dir) {
  const ObjectReader obj(value,
                         {"box", "sphere", "capsule", "cylinder", "torus", "mesh", "compound", "resolution"});
  std::optional<std::string_view> kind;
  for (std::string_view k : kShapeKinds) {
    if (!obj.has(k)) continue;
    if (kind) value.expected(kOneShape);
    kind = k;
  }
  if (!kind) value.expected(kOneShape);

  const JsonReader params = obj.at(*kind);
  const std::optional<JsonReader> resolution = obj.find("resolution");
  if (*kind == "box") return read_box(params, resolution);
  if (*kind == "sphere") return read_sphere(params, resolution);
  if (*kind == "capsule") return read_capsule(params, resolution);
  if (*kind == "cylinder") return read_cylinder(params, resolution);
  if (*kind == "torus") return read_torus(params, resolution);
  if (*kind == "compound") {
    if (resolution) resolution->fail("not allowed for a compound shape (each part has its own)");
    return read_compound(params, scene_dir);
  }
  if (resolution) resolution->fail("not allowed for a mesh shape (its resolution is the file's)");
  return read_mesh(params, scene_dir);
}

}  // namespace affix
