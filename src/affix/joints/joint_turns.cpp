#include "affix/joints/joint_turns.hpp"

#include <cmath>
#include <numbers>

namespace affix {

double JointTurns::unwrap(std::size_t joint, RigidCoordinate coordinate, double raw) const {
  if (!is_angle(coordinate)) return raw;
  const double expected = expected_[joint][slot(coordinate)];
  return expected + std::remainder(raw - expected, 2.0 * std::numbers::pi);
}

void JointTurns::unwrap_limits(std::size_t joint, const RigidJoint& rj, RigidVector& values) const {
  for (int k = 0; k < rj.limit_count; ++k) values[k] = unwrap(joint, rj.limits[k].coordinate, values[k]);
}

void JointTurns::lead(std::size_t joint, RigidCoordinate coordinate, double change) {
  if (!is_angle(coordinate)) return;
  expected_[joint][slot(coordinate)] = reference_[joint][slot(coordinate)] + change;
}

void JointTurns::commit(std::size_t joint, RigidCoordinate coordinate, double value) {
  if (!is_angle(coordinate)) return;
  reference_[joint][slot(coordinate)] = expected_[joint][slot(coordinate)] = value;
}

void lead_limits(JointTurns& turns, std::size_t joint, const RigidJoint& rj, const RigidRows& rows, const Vec6& u1,
                 const Vec6& u2, double h) {
  for (int k = 0; k < rj.limit_count; ++k) {
    double rate = rows.J1.row(k).dot(u1);
    if (rows.J2.rows() > 0) rate += rows.J2.row(k).dot(u2);
    turns.lead(joint, rj.limits[k].coordinate, h * rate);
  }
}

void commit_limits(JointTurns& turns, std::size_t joint, const RigidJoint& rj, RigidVector values) {
  turns.unwrap_limits(joint, rj, values);
  for (int k = 0; k < rj.limit_count; ++k) turns.commit(joint, rj.limits[k].coordinate, values[k]);
}

}  // namespace affix
