#pragma once
// The shapes bench/peers translates to the peer engines and measures exactly: boxes, spheres and
// capsules, the shapes of every benchmark scene (box-link chains, sphere nets, box piles, the
// free-ball wrecking scenes, the crane's cable and the capsule-link net). Other shapes are refused by
// the peer engines (naming the JSON path) and left out of the penetration measure (counted as
// unmeasured pairs).
#include <optional>
#include <string>

#include "affix/math/types.hpp"
#include "affix/scene/scene.hpp"

namespace affix::peers {

struct Primitive {
  enum class Kind { box, sphere, capsule } kind = Kind::box;
  Vec3 half = Vec3::Zero();  ///< box: half edge lengths, rest axes
  double radius = 0.0;       ///< sphere, capsule
  double half_length = 0.0;  ///< capsule: half its segment, along the rest z axis (affix's CapsuleShape)
};

/// The body's shape as a primitive centred on its origin, or nullopt for any other shape.
std::optional<Primitive> primitive_of(const BodyDef& body);

/// Throws InputError "<file>: bodies[i].shape: bench/peers translates boxes, spheres and capsules only" for the
/// first body of another shape (the peer engines are given no meshes: Lan 2022 §5.2's convex
/// decompositions are a translation choice of their own).
void require_primitives(const Scene& scene);

}  // namespace affix::peers
