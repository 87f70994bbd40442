#pragma once
// Contact detection for the rigid back-ends (impulse, Tomcin 2014 §7; compliant), with FCL (the
// Flexible Collision Library, Debian libfcl-dev, GJK/EPA through libccd) rather than our own: the paper
// used SOLID, a GJK library of the same kind.
//
// Each body collides as the convex pieces of its shape (convex_pieces.hpp: one FCL object per piece),
// placed at its pose each call: a box or sphere the exact FCL box or sphere, a capsule or cylinder the
// hull of its tessellation, a torus its tube segments, a compound its parts, a mesh the hull of each
// connected component (a concave one warned of at load time).
// Pairs of pieces come from FCL's dynamic AABB tree and are kept when they belong to two bodies that
// Model::may_collide allows; FCL's narrow phase gives each pair of pieces one contact (its deepest
// point; box–box up to 4, FCL's ODE-derived box–box manifold), so two bodies touching at several pieces
// get a manifold across them, reported per body pair as for convex bodies. The ground (the half-space
// z ≥ height) touches every moving body, filters aside (README, collision filters): a sphere piece at
// its lowest point, anything else at each vertex of its mesh below the plane — a resting box gets its
// four corners, not FCL's one deepest point, so it does not rock.
//
// A contact: the world point midway through the overlap, the unit normal pushing body1 out of body2
// (+z for the ground), and the penetration depth (> 0 when overlapping; contacts within `margin` of
// touching are reported with depth ≥ −margin).
#include <memory>
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/math/types.hpp"
#include "affix/model/model.hpp"

namespace affix {

struct RigidContact {
  int body1 = -1;             ///< model body index
  int body2 = -1;             ///< model body index, −1: the ground
  Vec3 point = Vec3::Zero();  ///< world, midway through the overlap
  Vec3 normal = Vec3::UnitZ();  ///< world, unit, from body2 towards body1
  double depth = 0.0;         ///< penetration (m); negative: apart by that much (within the margin)
};

class CollisionDetection {
 public:
  /// Builds every body's FCL shape once (meshes are shared, not copied per call).
  explicit CollisionDetection(const Model& model);
  ~CollisionDetection();
  CollisionDetection(CollisionDetection&&) noexcept;
  CollisionDetection& operator=(CollisionDetection&&) noexcept;

  /// The contacts at these poses (model order, at least the model's bodies: a solver's extra bodies
  /// after them are ignored; c the centre of mass, as RigidPose holds it), replacing
  /// `out` (its capacity is kept). Ground contacts come first, then body pairs with body1 < body2.
  /// `margin` (m) also reports ground contacts of points that are above the plane by less than it.
  /// `pair_margin` (m) also reports each pair of bodies that do not overlap but are nearer than it, with
  /// depths −gap: FCL's distance d and direction n, then FCL's contacts (box–box up to 4, the manifold) of
  /// the pair with body1 moved by 1.01 d along −n, read back at the true poses (the pairs by sweep and
  /// prune of the AABBs grown by the margin). Speculative contacts for a solver whose step may close that
  /// gap; the impulse solver passes none.
  void detect(const std::vector<RigidPose>& poses, std::vector<RigidContact>& out, double margin = 0.0,
              double pair_margin = 0.0);

 private:
  /// The speculative contacts of detect() (`pair_margin`), appended to the overlapping ones.
  void near_pairs(double pair_margin);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace affix
