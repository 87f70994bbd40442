#pragma once
// A body's shape as the peers' collision geoms: one part per primitive, each placed in the body's rest
// frame. A box, sphere, capsule or cylinder is one part at the origin; a compound (the Strandbeest's
// rigid triangles, an imported body with several geoms) is one part per piece, at its offset — what
// ODE expresses as several geoms on one body (dGeomSetBody + dGeomSetOffsetPosition/Rotation). Unlike
// primitives.hpp (the shapes the penetration measure is exact for), cylinders are included: every
// peer engine has one along its z axis, as affix's CylinderShape is.
#include <string>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/scene/scene.hpp"

namespace affix::peers {

struct GeomPart {
  enum class Kind { box, sphere, capsule, cylinder } kind = Kind::box;
  Vec3 size = Vec3::Zero();   ///< box: full edge lengths, part axes
  double radius = 0.0;        ///< sphere, capsule, cylinder
  double length = 0.0;        ///< capsule (without its caps), cylinder: along the part's z axis
  Vec3 position = Vec3::Zero();          ///< the part's centre in the body's rest frame
  Mat3 rotation = Mat3::Identity();      ///< the part's axes in the body's rest frame
};

/// The parts of body `index` of `scene`, or InputError "<file>: bodies[i].shape…: <what is expected>"
/// for a torus, a mesh, or a part scaled into a shape no peer has (a box may be scaled per axis, a
/// sphere uniformly, a capsule or cylinder equally in x and y).
std::vector<GeomPart> geom_parts(const Scene& scene, std::size_t index);

}  // namespace affix::peers
