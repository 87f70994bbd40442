#include "affix/ccd/primitive_distance.hpp"

#include <algorithm>

namespace affix::ccd_detail {

double point_point_distance_squared(const Vec3& p, const Vec3& q) { return (p - q).squaredNorm(); }

double point_edge_distance_squared(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  // The closest point is e0 + α e with the projection parameter α = r·e / |e|² clamped to [0, 1].
  const Vec3 e = e1 - e0;
  const Vec3 r = p - e0;
  const double ee = e.squaredNorm();
  const double alpha = ee > 0.0 ? std::clamp(r.dot(e) / ee, 0.0, 1.0) : 0.0;
  return (r - alpha * e).squaredNorm();
}

double point_triangle_distance_squared(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  double best = std::min({point_edge_distance_squared(p, t0, t1), point_edge_distance_squared(p, t1, t2),
                          point_edge_distance_squared(p, t2, t0)});
  // Interior candidate: r = p − t₀ = β₁e₁ + β₂e₂ + h n with n = e₁ × e₂, so β₁ = (r × e₂)·n / |n|² and
  // β₂ = (e₁ × r)·n / |n|²; the projection is inside when β₁, β₂ ≥ 0 and β₁ + β₂ ≤ 1.
  const Vec3 e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
  const Vec3 n = e1.cross(e2);
  const double nn = n.squaredNorm();
  if (nn > 0.0) {
    const double b1 = r.cross(e2).dot(n) / nn;
    const double b2 = e1.cross(r).dot(n) / nn;
    if (b1 >= 0.0 && b2 >= 0.0 && b1 + b2 <= 1.0) {
      best = std::min(best, (r - b1 * e1 - b2 * e2).squaredNorm());
    }
  }
  return best;
}

double edge_edge_distance_squared(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  double best = std::min({point_edge_distance_squared(a0, b0, b1), point_edge_distance_squared(a1, b0, b1),
                          point_edge_distance_squared(b0, a0, a1), point_edge_distance_squared(b1, a0, a1)});
  // Interior candidate: the closest point a₀ + s u of line a to line b, with u = a₁ − a₀, v = b₁ − b₀,
  // w = b₀ − a₀ and n = u × v: s u − t v = w + h n gives s = (w × v)·n / |n|². For nearly parallel edges
  // s is inaccurate, but the distance from the point a₀ + s u (s clamped to [0, 1]) to segment b is an
  // upper bound for any s and varies slowly along that direction, so it stays accurate; pairing it with
  // the line-b parameter t = (w × u)·n / |n|² instead would not (the error in t is independent of s's).
  const Vec3 u = a1 - a0, v = b1 - b0, w = b0 - a0;
  const Vec3 n = u.cross(v);
  const double nn = n.squaredNorm();
  if (nn > 0.0) {
    const double s = w.cross(v).dot(n) / nn;
    if (s > 0.0 && s < 1.0) {
      best = std::min(best, point_edge_distance_squared(a0 + s * u, b0, b1));
    }
  }
  return best;
}

}  // namespace affix::ccd_detail
