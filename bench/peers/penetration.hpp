#pragma once
// Exact penetration depths of boxes, spheres and capsules, from poses alone: the one measure of overlap that
// bench/peers applies to every engine's output (README: penetration depth).
//
// The penetration depth of two convex bodies is the length of the shortest translation that separates
// them: min over unit n of the overlap of their projections on n. For two boxes the minimum is reached
// on a face normal of their Minkowski difference, and those normals are among the 15 separating-axis
// candidates (the 3 + 3 face normals and the 9 cross products of edge directions); any other direction
// only overlaps more, so the minimum over the 15 is the depth exactly. A sphere against a box: the
// distance from the centre to the box (outside) or to its nearest face (inside), against the radius.
#include "affix/model/body_state.hpp"
#include "primitives.hpp"

namespace affix::peers {

/// Depth (m) by which a and b overlap at their poses: > 0 overlapping, ≤ 0 apart (then it is minus a
/// lower bound on their distance, exact for sphere pairs and sphere–box). The pose's A is taken as
/// the rotation (an affine body's A is one to its solver's tolerance).
double penetration_depth(const Primitive& a, const BodyPose& pa, const Primitive& b, const BodyPose& pb);

/// Depth (m) by which the body reaches below the ground plane z = height (≤ 0: above it).
double ground_penetration(const Primitive& a, const BodyPose& pose, double height);

/// Half extents of the body's world axis-aligned bounding box, about its origin.
Vec3 world_half_extents(const Primitive& a, const BodyPose& pose);

}  // namespace affix::peers
