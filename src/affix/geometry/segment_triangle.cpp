#include "affix/geometry/segment_triangle.hpp"

#include <algorithm>
#include <cmath>

namespace affix {

namespace {

/// Signed distance, inside the plane with unit normal n, from the line through a→b to x: positive on
/// the left of a→b seen from +n, d = ((b − a) × (x − a))·n / |b − a|.
double side_distance(const Vec3& a, const Vec3& b, const Vec3& x, const Vec3& n) {
  const Vec3 e = b - a;
  const double length = e.norm();
  return length > 0.0 ? e.cross(x - a).dot(n) / length : -(x - a).norm();
}

/// x (on the plane) inside the counter-clockwise triangle abc up to tol: on the inner side of all
/// three edge lines, each side distance ≥ −tol.
bool in_triangle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& n, double tol) {
  return side_distance(a, b, x, n) >= -tol && side_distance(b, c, x, n) >= -tol && side_distance(c, a, x, n) >= -tol;
}

/// Distance from x to the closed segment [a, b]: clamp the projection t = (x − a)·e/|e|² to [0, 1].
double point_segment_distance(const Vec3& x, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = e.squaredNorm();
  const double t = ee > 0.0 ? std::clamp((x - a).dot(e) / ee, 0.0, 1.0) : 0.0;
  return (a + t * e - x).norm();
}

/// Two segments in the plane with normal n, within tol of each other. Coplanar segments either cross
/// properly (each one's endpoints strictly on opposite sides of the other's line) or their distance is
/// reached at one of the four endpoints.
bool coplanar_segments_meet(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& n, double tol) {
  const double sa = (q - p).cross(a - p).dot(n), sb = (q - p).cross(b - p).dot(n);
  const double sp = (b - a).cross(p - a).dot(n), sq = (b - a).cross(q - a).dot(n);
  if (sa * sb < 0.0 && sp * sq < 0.0) {
    return true;
  }
  return std::min({point_segment_distance(p, a, b), point_segment_distance(q, a, b), point_segment_distance(a, p, q),
                   point_segment_distance(b, p, q)}) <= tol;
}

}  // namespace

bool segment_meets_triangle(const Vec3& s0, const Vec3& s1, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                            double tol) {
  const Vec3 normal = (t1 - t0).cross(t2 - t0);
  const double twice_area = normal.norm();
  if (!(twice_area > 0.0)) {
    return false;
  }
  const Vec3 n = normal / twice_area;
  // Signed distances of the endpoints from the plane, h = n·(s − t₀).
  const double h0 = n.dot(s0 - t0), h1 = n.dot(s1 - t0);
  if ((h0 > tol && h1 > tol) || (h0 < -tol && h1 < -tol)) {
    return false;  // both strictly on one side: the segment never reaches the plane's tol-slab
  }
  // Project onto the plane, x' = x − h n, so that the in-plane tests below see flat geometry.
  const Vec3 p0 = s0 - h0 * n, p1 = s1 - h1 * n;
  if (std::abs(h0) <= tol && std::abs(h1) <= tol) {
    // Lying in the plane (up to tol): Möller–Trumbore's division by n·(s₁ − s₀) breaks down here, so
    // test in 2D: an endpoint inside, or the segment meeting one of the three edges.
    return in_triangle(p0, t0, t1, t2, n, tol) || in_triangle(p1, t0, t1, t2, n, tol) ||
           coplanar_segments_meet(p0, p1, t0, t1, n, tol) || coplanar_segments_meet(p0, p1, t1, t2, n, tol) ||
           coplanar_segments_meet(p0, p1, t2, t0, n, tol);
  }
  // Crossing point of the line with the plane, s(t) = s₀ + t (s₁ − s₀) with t = h₀/(h₀ − h₁) (h₀ ≠ h₁
  // here). Clamping to [0, 1] picks the endpoint inside the slab when both h have the same sign.
  const double t = std::clamp(h0 / (h0 - h1), 0.0, 1.0);
  return in_triangle(p0 + t * (p1 - p0), t0, t1, t2, n, tol);
}

}  // namespace affix
