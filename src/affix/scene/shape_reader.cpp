#include "affix/scene/shape_reader.hpp"

#include <optional>
#include <string>

#include "affix/scene/body_reader.hpp"

namespace affix {

namespace {

constexpr std::string_view kShapeKinds[] = {"box", "sphere", "capsule", "cylinder", "torus", "mesh", "compound"};
constexpr const char* kOneShape = "exactly one of box, sphere, capsule, cylinder, torus, mesh, compound";

/// Three positive numbers, e.g. box edge lengths or a per-axis mesh scale.
Vec3 positive_vec3(const JsonReader& value) {
  if (!value.json().is_array() || value.json().size() != 3) value.expected("an array of 3 positive numbers");
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

MeshShape read_mesh(const JsonReader& value, const std::filesystem::path& scene_dir) {
  const ObjectReader obj(value, {"file", "scale"}, "a mesh");
  MeshShape mesh;
  mesh.file = (scene_dir / obj.at("file").non_empty_string()).lexically_normal();
  if (auto scale = obj.find("scale")) {
    mesh.scale = scale->json().is_number() ? Vec3::Constant(scale->positive()) : positive_vec3(*scale);
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
