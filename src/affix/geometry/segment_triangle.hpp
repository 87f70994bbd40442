#pragma once
// Does a segment meet a triangle? The narrow phase of the start-of-simulation intersection check
// (mesh_intersection.hpp): two closed surfaces cross or touch iff an edge of one meets a face of the
// other. Touching must count, so every comparison carries an absolute distance tolerance.
#include "affix/math/types.hpp"

namespace affix {

/// True when the closed segment [s0, s1] meets the closed triangle (t0, t1, t2), where "meets" is
/// widened by the distance `tol` ≥ 0: an endpoint within `tol` of the triangle, a crossing point
/// within `tol` of its boundary, or (segment within `tol` of the triangle's plane) a segment within
/// `tol` of an edge all count. A zero-area triangle meets nothing.
bool segment_meets_triangle(const Vec3& s0, const Vec3& s1, const Vec3& t0, const Vec3& t1, const Vec3& t2, double tol);

}  // namespace affix
