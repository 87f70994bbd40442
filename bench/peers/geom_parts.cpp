#include "geom_parts.hpp"

#include <cmath>
#include <variant>

#include "affix/error.hpp"

namespace affix::peers {

namespace {

/// One non-compound shape scaled per axis as a part at the origin, or an error message ("" when it fits).
std::string to_part(const Shape& shape, const Vec3& scale, GeomPart& part) {
  const auto equal = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); };
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    part.kind = GeomPart::Kind::box;
    part.size = box->size.cwiseProduct(scale);
    return "";
  }
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    if (!equal(scale.x(), scale.y()) || !equal(scale.x(), scale.z())) return "a sphere scaled equally on every axis";
    part.kind = GeomPart::Kind::sphere;
    part.radius = sphere->radius * scale.x();
    return "";
  }
  const auto round = [&](GeomPart::Kind kind, double radius, double length) {
    if (!equal(scale.x(), scale.y())) return std::string("a capsule or cylinder scaled equally in x and y");
    part.kind = kind;
    part.radius = radius * scale.x();
    part.length = length * scale.z();
    return std::string();
  };
  if (const auto* capsule = std::get_if<CapsuleShape>(&shape)) {
    return round(GeomPart::Kind::capsule, capsule->radius, capsule->length);
  }
  if (const auto* cylinder = std::get_if<CylinderShape>(&shape)) {
    return round(GeomPart::Kind::cylinder, cylinder->radius, cylinder->length);
  }
  return "a box, sphere, capsule, cylinder or a compound of them (the peers are given no meshes)";
}

}  // namespace

std::vector<GeomPart> geom_parts(const Scene& scene, std::size_t index) {
  const std::string path = scene.file.string() + ": bodies[" + std::to_string(index) + "].shape";
  const Shape& shape = scene.bodies[index].shape;
  std::vector<GeomPart> parts;
  if (const auto* compound = std::get_if<CompoundShape>(&shape)) {
    for (std::size_t k = 0; k < compound->parts.size(); ++k) {
      const ShapePart& piece = compound->parts[k];
      GeomPart part;
      const std::string why = to_part(piece.shape, piece.scale, part);
      if (!why.empty()) throw InputError(path + ".parts[" + std::to_string(k) + "]: bench/peers translates " + why);
      part.position = piece.position;
      part.rotation = piece.rotation.normalized().toRotationMatrix();
      parts.push_back(part);
    }
    return parts;
  }
  GeomPart part;
  const std::string why = to_part(shape, Vec3::Ones(), part);
  if (!why.empty()) throw InputError(path + ": bench/peers translates " + why);
  parts.push_back(part);
  return parts;
}

}  // namespace affix::peers
