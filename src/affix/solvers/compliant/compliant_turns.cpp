// The compliant solver's continuous joint angles (joints/joint_turns.hpp): every limited angle and every
// driven hinge angle is read as θ = atan2 + 2πk nearest the value the substep expects, so that a bound or
// a set point past ±180° (`limits_deg` [−270, 270], a URDF's ±360°) is seen where the joint is. The
// reference is committed at t = 0 and at the end of every substep (after the projection), led by h ṡ₊
// before the substep's drift (at the velocities the LCP solved for), and kept with a halving's snapshot.
#include "affix/solvers/compliant/compliant_simulator.hpp"

namespace affix {

RigidRows CompliantSimulator::limit_coordinates(std::size_t j) const {
  const RigidJoint& rj = joints_[j];
  RigidRows rows = rigid_limit_coordinates(rj, rigid_pose(rj.body1), rigid_pose(rj.body2));
  turns_.unwrap_limits(j, rj, rows.value);
  return rows;
}

RigidRows CompliantSimulator::drive_coordinate(std::size_t j, RigidCoordinate coordinate) const {
  const RigidJoint& rj = joints_[j];
  RigidRows rows = rigid_coordinate(rj, coordinate, rigid_pose(rj.body1), rigid_pose(rj.body2));
  rows.value[0] = turns_.unwrap(j, coordinate, rows.value[0]);
  return rows;
}

void CompliantSimulator::commit_turns() {
  for (std::size_t j = 0; j < joints_.size(); ++j)
    if (joints_[j].limit_count > 0) commit_limits(turns_, j, joints_[j], limit_coordinates(j).value);
  for (std::size_t d = 0; d < drives_.size(); ++d)
    turns_.commit(drive_joint_[d], drives_[d].coordinate, drive_coordinate(drive_joint_[d], drives_[d].coordinate).value[0]);
  for (const BoundedDrive& bd : bounded_)
    turns_.commit(bd.joint, bd.drive.coordinate, drive_coordinate(bd.joint, bd.drive.coordinate).value[0]);
}

void CompliantSimulator::lead_turns(const VecX& v, double h) {
  const auto lead = [&](std::size_t j, const RigidRows& rows, RigidCoordinate coordinate) {
    const RigidJoint& rj = joints_[j];
    double rate = rows.J1.row(0).dot(body_velocity(rj.body1, v));
    if (rows.J2.rows() > 0) rate += rows.J2.row(0).dot(body_velocity(rj.body2, v));
    turns_.lead(j, coordinate, h * rate);
  };
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j];
    if (rj.limit_count == 0) continue;
    const RigidRows rows = rigid_limit_coordinates(rj, rigid_pose(rj.body1), rigid_pose(rj.body2));
    lead_limits(turns_, j, rj, rows, body_velocity(rj.body1, v), body_velocity(rj.body2, v), h);
  }
  for (std::size_t d = 0; d < drives_.size(); ++d)
    lead(drive_joint_[d], drive_coordinate(drive_joint_[d], drives_[d].coordinate), drives_[d].coordinate);
  for (const BoundedDrive& bd : bounded_) lead(bd.joint, drive_coordinate(bd.joint, bd.drive.coordinate), bd.drive.coordinate);
}

}  // namespace affix
