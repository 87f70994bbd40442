#include "affix/geometry/winding_number.hpp"

#include <cmath>
#include <numbers>

namespace affix {

double triangle_solid_angle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& q) {
  // Van Oosterom & Strackee (1983): with u, v, w the corners relative to q and |·| their lengths,
  //   tan(Ω/2) = u·(v × w) / (|u||v||w| + (u·v)|w| + (v·w)|u| + (w·u)|v|).
  // atan2 keeps the quadrant, so Ω/2 ∈ (−π, π] and the sign follows the triple product.
  const Vec3 u = a - q, v = b - q, w = c - q;
  const double lu = u.norm(), lv = v.norm(), lw = w.norm();
  const double numerator = u.dot(v.cross(w));
  const double denominator = lu * lv * lw + u.dot(v) * lw + v.dot(w) * lu + w.dot(u) * lv;
  return 2.0 * std::atan2(numerator, denominator);
}

double winding_number(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> faces, const Vec3& q) {
  double total = 0.0;
  for (const auto& [i, j, k] : faces) {
    total += triangle_solid_angle(vertices[i], vertices[j], vertices[k], q);
  }
  return total / (4.0 * std::numbers::pi);
}

bool inside_closed_surface(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> faces, const Vec3& q) {
  return std::abs(winding_number(vertices, faces, q)) > 0.5;
}

}  // namespace affix
