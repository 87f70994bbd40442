#include "affix/solvers/compliant/row_curvature.hpp"

namespace affix {

void row_curvature(const std::vector<RigidJoint>& joints, const ConstraintJacobian& J, const VecX& phi,
                   const std::vector<RigidPose>& next, const std::vector<Vec6>& velocity, double h, VecX& out) {
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const RigidJoint& rj = joints[j];
    const JointSlot& s = J.slots[j];
    const RigidRows rows = rigid_rows(rj, next[rj.body1], rj.body2 >= 0 ? next[rj.body2] : RigidPose{});
    RigidVector Ju = J.blocks[j][0] * velocity[rj.body1];
    if (rj.body2 >= 0) Ju += J.blocks[j][1] * velocity[rj.body2];
    // A slack cable's axial row (its first) is not among J's rows (compliant_simulator.hpp, SlackRow):
    // the slot holds the last s.count rows.
    out.segment(s.offset, s.count) = rows.value.tail(s.count) - phi.segment(s.offset, s.count) - h * Ju;  // d (header)
  }
}

}  // namespace affix
