#include "affix/solvers/compliant/drive_rows.hpp"

#include <cmath>
#include <numbers>

namespace affix {

double DriveRow::error(double s) const {
  if (kind == Kind::motor) return 0.0;
  const double e = s - target;
  return coordinate == RigidCoordinate::twist ? std::remainder(e, 2.0 * std::numbers::pi) : e;
}

double DriveRow::compliance(double rigid_compliance) const {
  return kind == Kind::servo ? 1.0 / stiffness : rigid_compliance;
}

std::optional<DriveRow> drive_row(const JointDef& def) {
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
  return row;
}

}  // namespace affix
