#include "affix/model/body_mesh.hpp"

#include <new>
#include <stdexcept>

#include "affix/error.hpp"
#include "affix/geometry/mesh_validation.hpp"
#include "affix/geometry/mesh_file.hpp"
#include "affix/geometry/primitives.hpp"

namespace affix {
namespace {

struct Mesher {
  TriangleMesh operator()(const BoxShape& s) const { return make_box(s.size, s.resolution); }
  TriangleMesh operator()(const SphereShape& s) const { return make_sphere(s.radius, s.resolution); }
  TriangleMesh operator()(const CapsuleShape& s) const {
    return make_capsule(s.radius, s.length, s.resolution);
  }
  TriangleMesh operator()(const CylinderShape& s) const {
    return make_cylinder(s.radius, s.length, s.resolution);
  }
  TriangleMesh operator()(const TorusShape& s) const {
    return make_torus(s.major, s.minor, s.resolution);
  }
  TriangleMesh operator()(const MeshShape& s) const {
    return s.file.empty() ? inline_mesh(s.vertices, s.triangles, s.scale) : load_mesh_file(s.file, s.scale);
  }
  /// The parts' surfaces side by side, each x̄ = position + rotation · (scale ⊙ x̄_part): a positive
  /// per-axis scale keeps every part closed and outward-facing, so the union of disjoint closed
  /// surfaces is a valid solid for every check that follows (overlaps are not detected, as
  /// self-intersections are not).
  TriangleMesh operator()(const CompoundShape& s) const {
    TriangleMesh out;
    for (const ShapePart& part : s.parts) {
      const TriangleMesh mesh = std::visit(*this, part.shape);
      const int offset = static_cast<int>(out.vertices.size());
      const Mat3 R = part.rotation.normalized().toRotationMatrix();
      for (const Vec3& v : mesh.vertices) out.vertices.push_back(part.position + R * v.cwiseProduct(part.scale));
      for (const auto& f : mesh.faces) out.faces.push_back({f[0] + offset, f[1] + offset, f[2] + offset});
    }
    return out;
  }
};

struct TriangleCounter {
  std::optional<std::int64_t> operator()(const BoxShape& s) const { return box_triangle_count(s.resolution); }
  std::optional<std::int64_t> operator()(const SphereShape& s) const {
    return sphere_triangle_count(s.resolution);
  }
  std::optional<std::int64_t> operator()(const CapsuleShape& s) const {
    return capsule_triangle_count(s.length, s.resolution);
  }
  std::optional<std::int64_t> operator()(const CylinderShape& s) const {
    return cylinder_triangle_count(s.resolution);
  }
  std::optional<std::int64_t> operator()(const TorusShape& s) const {
    return torus_triangle_count(s.resolution);
  }
  std::optional<std::int64_t> operator()(const MeshShape&) const { return std::nullopt; }
  std::optional<std::int64_t> operator()(const CompoundShape& s) const {
    std::int64_t total = 0;
    for (const ShapePart& part : s.parts) {
      const auto count = std::visit(*this, part.shape);
      if (!count) return std::nullopt;  // a mesh part: known once read
      total += *count;
    }
    return total;
  }
};

std::string shape_key(const Shape& shape) {
  static const char* keys[] = {"box", "sphere", "capsule", "cylinder", "torus", "mesh.file", "compound"};
  if (const auto* mesh = std::get_if<MeshShape>(&shape); mesh && mesh->file.empty()) return "mesh";
  return keys[shape.index()];
}

}  // namespace

std::optional<std::int64_t> primitive_triangle_count(const Shape& shape) {
  return std::visit(TriangleCounter{}, shape);
}

TriangleMesh body_mesh(const Shape& shape, const std::filesystem::path& scene_file,
                       const std::string& json_path) {
  const std::string where = scene_file.string() + ": " + json_path + "." + shape_key(shape) + ": ";
  TriangleMesh mesh;
  try {
    mesh = std::visit(Mesher{}, shape);
  } catch (const std::bad_alloc&) {
    throw;  // the machine's limit, not a fault of the shape
  } catch (const std::exception& e) {
    // An OBJ file's reasons name the file and say what was expected on which line themselves.
    const bool file = !primitive_triangle_count(shape);  // a mesh, or a compound with a mesh part
    throw InputError(where + (file ? "" : "expected a meshable shape: ") + e.what());
  }
  if (auto defect = find_mesh_defect(mesh)) {
    throw InputError(where + "expected a closed, manifold, outward-oriented mesh of positive volume: " +
                     *defect);
  }
  return mesh;
}

}  // namespace affix
