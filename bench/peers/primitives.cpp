#include "primitives.hpp"

#include <variant>

#include "affix/error.hpp"

namespace affix::peers {

std::optional<Primitive> primitive_of(const BodyDef& body) {
  if (const auto* box = std::get_if<BoxShape>(&body.shape)) {
    return Primitive{Primitive::Kind::box, 0.5 * box->size, 0.0};
  }
  if (const auto* sphere = std::get_if<SphereShape>(&body.shape)) {
    return Primitive{Primitive::Kind::sphere, Vec3::Zero(), sphere->radius};
  }
  if (const auto* capsule = std::get_if<CapsuleShape>(&body.shape)) {
    return Primitive{Primitive::Kind::capsule, Vec3::Zero(), capsule->radius, 0.5 * capsule->length};
  }
  return std::nullopt;
}

void require_primitives(const Scene& scene) {
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (!primitive_of(scene.bodies[i])) {
      throw InputError(scene.file.string() + ": bodies[" + std::to_string(i) +
                       "].shape: bench/peers translates boxes, spheres and capsules only");
    }
  }
}

}  // namespace affix::peers
