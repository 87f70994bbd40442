#pragma once
// Inside or outside a closed surface? The winding number counts how many times the surface wraps
// around a point: 1 inside an outward-oriented solid, 0 outside, −1 inside a mirrored one. Unlike ray
// parity it needs no ray that avoids edges and vertices, which makes it robust for any point not on
// the surface itself (Jacobson et al. 2013, "Robust inside-outside segmentation using generalized
// winding numbers", §3).
#include <array>
#include <span>

#include "affix/math/types.hpp"

namespace affix {

/// Signed solid angle (steradians, in (−2π, 2π)) that the triangle (a, b, c) subtends at q; positive
/// when q sees the triangle clockwise, i.e. lies behind an outward-facing (counter-clockwise) face.
double triangle_solid_angle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& q);

/// Winding number w(q) = (1/4π) Σ_f Ω_f(q) of the triangles `faces` over `vertices` about q. For a
/// closed, consistently oriented surface it is an integer (up to rounding) whenever q is off the
/// surface; on the surface it is meaningless.
double winding_number(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> faces, const Vec3& q);

/// q strictly inside the closed surface (either orientation): |w(q)| > 1/2.
bool inside_closed_surface(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> faces, const Vec3& q);

}  // namespace affix
