// The compliant solver's max_joint_error (stats.csv, summary.json) is joints.csv's `error`: the gap that
// the joint's two anchors show, by joint type (io/joints_writer.hpp, joint_gap), read here from the rows
// φ at the end of the step instead of from the joint records. It was the largest row of any joint, a
// point row's world component and not the anchors' distance (a torn net: 0.178 m in summary.json and
// 0.229 m in joints.csv), and a slack cable's stretch without its shortening (hostile pass 16, issue 15).
// The rows (joints/rigid_jacobian.hpp) are in frames that keep their lengths, so the same numbers:
//   ball, cone_twist, hinge, universal, fixed   the three point rows: |d|
//   cable                                       d·x₂, d·y₂, d·z₂: |d|; slack (model/slack_cable.hpp): the
//                                               shear rows across the axis, the stretch past [−r, 0] along
//   prismatic, slider along `direction`         d·y₂, d·z₂: the part of d off the line
//   slider on a `normal`                        |d·x₂|
//   distance                                    |‖d‖ − L|; with only `min`/`max` how far ‖d‖ is outside
// Angular rows (a hinge's axes) and limits (angles, slides) are not in it, as in joints.csv; only the
// rows' own frames differ from the records' by round-off.
#include <algorithm>
#include <cmath>

#include "affix/model/slack_cable.hpp"
#include "affix/solvers/compliant/compliant_simulator.hpp"

namespace affix {

double CompliantSimulator::joint_gap(std::size_t j) const {
  const RigidJoint& rj = joints_[j];
  const auto rows = phi_.segment(J_.slots[j].offset, J_.slots[j].count);
  const SlackRow& sr = slack_[j];
  switch (rj.type) {
    case JointType::ball:
    case JointType::cone_twist:
    case JointType::hinge:
    case JointType::universal:
    case JointType::fixed: return rows.head(3).norm();
    case JointType::cable: {
      if (!sr.slack) return rows.head(3).norm();
      // d in body 2's axes (x₂ the cable's): the axial row apart, then the shear rows.
      return slack_cable_gap({sr.sign, sr.reach}, Vec3(sr.phi, rows[0], rows[1]), Vec3::UnitX());
    }
    case JointType::prismatic: return rows.head(2).norm();
    case JointType::slider: return rj.count == 1 ? std::abs(rows[0]) : rows.head(2).norm();
    case JointType::distance: {
      if (rj.count == 1) return std::abs(rows[0]);
      const RigidRows L = rigid_limit_coordinates(rj, rigid_pose(rj.body1), rigid_pose(rj.body2));
      return std::max({0.0, rj.limits[0].min - L.value[0], L.value[0] - rj.limits[0].max});
    }
  }
  return 0.0;
}

}  // namespace affix
