#pragma once
// MuJoCo joints and equality constraints → affix joints (README "Importing MJCF and URDF"): hinge →
// hinge, slide → prismatic, ball → ball, free → none, `range` → limits; a body with several joints gets
// a chain of virtual links, one joint each; a jointless body inside a moving one is welded to its
// parent (fixed); equality connect → ball, weld → fixed. Call after map_bodies.
#include "affix/import/import_context.hpp"

namespace affix {

/// A virtual link's mass and inertia as a fraction of the body it leads to: small enough to leave
/// the dynamics alone, large enough to keep the affine mass matrix well conditioned.
inline constexpr double kVirtualLinkFraction = 1e-3;

void map_joints(ImportContext& ctx);
void map_equalities(ImportContext& ctx);

}  // namespace affix
