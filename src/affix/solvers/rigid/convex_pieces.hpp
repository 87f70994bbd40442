#pragma once
// The convex pieces a body collides as in the rigid back-ends' FCL detection (collision_detection.hpp):
// a concave body is a compound of convex pieces, as in Bullet or PhysX, never the hull of the whole.
// They are found from the rest-frame mesh alone (the model keeps meshes, not the scene's shapes), one
// connected component of it at a time — a compound's parts are its components, since body_mesh puts
// their closed surfaces side by side:
//   box            FCL's exact box where the 8 corners of the component's bounding box are vertices
//                  (the hull of such a mesh is that box: a box, or an axis-aligned box part)
//   sphere         FCL's exact sphere of radius R where the component has at least 26 vertices, all at
//                  distance R from its bounding box's centre (a sphere, or a sphere part under a uniform
//                  scale)
//   torus          its tube segments where every vertex lies on one torus (centre: the vertices' mean;
//                  axis: their covariance's least eigenvector; R, r: the tube circle fitted through the
//                  vertices' (distance from the axis, height)), as a torus shape or part (under a uniform
//                  scale) is meshed: segment k is the hull
//                  of the mesh's vertex rings at the k-th and (k+1)-th distinct major angle. Each band of
//                  the mesh between two rings is planar quads of one convex polygon swept between two
//                  planes, so the segments' union is exactly the torus mesh's solid. Its vertices lie on
//                  the true torus and its faces within (R + r)(1 − cos(π/n)) + r(1 − cos(π/m)) of it
//                  (n = `resolution` rings; the tube the inscribed polygon of m = max(3, ⌊n/2⌋) sides; the
//                  rings joined by chords, inside the torus on its outer half, outside across the hole)
//   otherwise      the hull of the component's vertices: exact for a convex one (capsule, cylinder,
//                  convex mesh); a component that folds inwards at some edge (a concave OBJ) touches like
//                  its hull, and the solver warns at load time, naming the body (README, The impulse
//                  solver: contact)
#include <vector>

#include "affix/math/types.hpp"
#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

struct ConvexPiece {
  enum class Kind { box, sphere, hull };
  Kind kind = Kind::hull;
  Vec3 center = Vec3::Zero();        ///< rest frame: the box's or sphere's centre (hull: 0)
  Mat3 rotation = Mat3::Identity();  ///< rest frame: the box's axes (hull: identity)
  Vec3 size = Vec3::Zero();          ///< box: full edge lengths
  double radius = 0.0;               ///< sphere
  std::vector<Vec3> points;          ///< hull: the rest-frame points whose convex hull is the piece
  /// The rest-frame surface vertices that meet the ground as points (every vertex of the body in
  /// exactly one piece, so that no contact is reported twice); empty for a sphere, which meets the
  /// ground at its lowest point.
  std::vector<Vec3> surface;
};

struct ConvexPieces {
  std::vector<ConvexPiece> pieces;
  /// Some piece is the hull of a component that folds inwards (for the load-time warning).
  bool hull_of_concave = false;
};

/// The body's pieces, from its rest-frame mesh.
ConvexPieces convex_pieces(const TriangleMesh& mesh);

}  // namespace affix
