#include "affix/solvers/compliant/drive_rows.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace affix {

double DriveRow::error(double s) const {
  if (kind == Kind::motor) return 0.0;
  const double e = s - target;
  // A limited angle is continuous (joint_turns.hpp) and the way to s* inside the range is s − s* itself;
  // a free one turns the short way, modulo a turn.
  const bool limited = std::isfinite(min) || std::isfinite(max);
  return coordinate == RigidCoordinate::twist && !limited ? std::remainder(e, 2.0 * std::numbers::pi) : e;
}

double DriveRow::compliance(double rigid_compliance) const {
  return kind == Kind::servo ? 1.0 / stiffness : rigid_compliance;
}

double DriveRow::target_rate(double s, double h) const {
  if (kind != Kind::motor) return 0.0;
  if (bounded()) return target;
  // Header: the rate that lands s at ε inside a bound; min() then max() leaves s moving inwards
  // when it starts past a bound (both cuts then push it back, as the limit row does).
  double rate = target;
  if (std::isfinite(max)) rate = std::min(rate, (max - kMotorLimitInside - s) / h);
  if (std::isfinite(min)) rate = std::max(rate, (min + kMotorLimitInside - s) / h);
  return rate;
}

std::optional<DriveRow> drive_row(const JointDef& def, const RigidJoint& joint) {
  if (!def.motor && !def.servo) return std::nullopt;
  DriveRow row;
  row.coordinate = def.type == JointType::hinge ? RigidCoordinate::twist : RigidCoordinate::slide;
  if (def.motor) {
    row.kind = DriveRow::Kind::motor;
    row.target = def.motor->velocity;
    row.max_force = def.motor->max_force;
  } else {
    row.kind = DriveRow::Kind::servo;
    row.target = def.servo->position;
    row.stiffness = def.servo->stiffness;
    row.damping = def.servo->damping;
    row.max_force = def.servo->max_force;
  }
  for (int k = 0; k < joint.limit_count; ++k)
    if (joint.limits[k].coordinate == row.coordinate) row.min = joint.limits[k].min, row.max = joint.limits[k].max;
  return row;
}

}  // namespace affix
