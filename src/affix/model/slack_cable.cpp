#include "affix/model/slack_cable.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace affix {

SlackCable slack_cable(const Vec3& anchor, const Vec3& axis, const Vec3& origin1, const std::optional<Vec3>& origin2) {
  constexpr double kBeside = 1e-9;  // m: an origin this close to the anchor's plane lies beside it
  const double side1 = (origin1 - anchor).dot(axis);
  const double side2 = origin2 ? (*origin2 - anchor).dot(axis) : 0.0;
  SlackCable out;
  const double side = std::abs(side1) >= kBeside ? side1 : -side2;
  out.sign = side < 0.0 ? -1.0 : 1.0;
  double reach = std::numeric_limits<double>::infinity();
  for (const double s : {side1, side2})
    if (std::abs(s) >= kBeside) reach = std::min(reach, 2.0 * std::abs(s));
  out.reach = std::isfinite(reach) ? reach : 0.0;
  return out;
}

double slack_cable_gap(const SlackCable& cable, const Vec3& d, const Vec3& axis2) {
  const double along = d.dot(axis2), stretch = cable.sign * along;
  const double across = (d - along * axis2).norm();
  const double past = std::max({stretch, -stretch - cable.reach, 0.0});  // e > 0 and e < −r never both
  return std::hypot(across, past);
}

}  // namespace affix
