#include "affix/joints/swing_cone.hpp"

#include <cmath>

namespace affix {

SwingConeValue swing_cone(const Vec3& a, const SwingCone& cone) {
  constexpr double kTiny = 1e-12;  // r below this: θ = 0 or π, n = (1, 0) (header)
  double ay = a.y(), az = a.z();
  double r = std::hypot(ay, az);
  if (r < kTiny) ay = 0.0, az = -kTiny, r = kTiny;
  const double ax = a.x();
  const double n1 = -az / r, n2 = ay / r;
  const double Y = n1 >= 0.0 ? cone.y_max : cone.y_min;
  const double Z = n2 >= 0.0 ? cone.z_max : cone.z_min;
  SwingConeValue out;
  out.theta = std::atan2(r, ax);
  out.limit = 1.0 / std::sqrt(n1 * n1 / (Y * Y) + n2 * n2 / (Z * Z));
  out.value = out.theta - out.limit;
  const double q = r * r + ax * ax;
  const Vec3 dtheta(-r / q, ax * ay / (r * q), ax * az / (r * q));
  const double L3 = out.limit * out.limit * out.limit;
  const double l1 = -L3 * n1 / (Y * Y), l2 = -L3 * n2 / (Z * Z);
  const double along = n1 * l1 + n2 * l2;  // (I − nnᵀ)ℓ / r
  const double m1 = (l1 - along * n1) / r, m2 = (l2 - along * n2) / r;
  out.gradient = dtheta - Vec3(0.0, m2, -m1);
  return out;
}

}  // namespace affix
