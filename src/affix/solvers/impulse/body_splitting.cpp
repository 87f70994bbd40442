#include "affix/solvers/impulse/body_splitting.hpp"

#include <algorithm>

namespace affix {

std::vector<int> split_bodies(std::vector<RigidBody>& bodies, std::vector<RigidJoint>& joints, int parts_setting) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> owner(n);
  for (int i = 0; i < n; ++i) owner[i] = i;
  if (parts_setting == 1) return owner;
  // The joints on each moving body, in scene order (a joint between two split bodies is on both).
  std::vector<std::vector<int>> on(n);
  for (int j = 0; j < static_cast<int>(joints.size()); ++j) {
    for (const int b : {joints[j].body1, joints[j].body2})
      if (b >= 0 && !bodies[b].prescribed) on[b].push_back(j);
  }
  for (int b = 0; b < n; ++b) {
    const int count = static_cast<int>(on[b].size());
    if (count <= kSplitAbove) continue;
    const int parts = std::min(count, parts_setting >= 2 ? parts_setting : (count + kJointsPerPart - 1) / kJointsPerPart);
    if (parts < 2) continue;
    RigidBody& body = bodies[b];
    body.mass /= parts;
    body.inverse_mass *= parts;
    body.inertia /= parts;
    body.inverse_inertia *= parts;
    std::vector<int> part(parts, b);
    for (int p = 1; p < parts; ++p) {
      part[p] = static_cast<int>(bodies.size());
      bodies.push_back(bodies[b]);  // the same pose, velocity, mass/n_p and Ī/n_p
      owner.push_back(b);
      // Welded to the previous part at the centre of mass (frames relative to it, rigid_jacobian.hpp).
      RigidJoint weld;
      weld.type = JointType::fixed;
      weld.body1 = part[p];
      weld.body2 = part[p - 1];
      weld.count = 6;
      joints.push_back(weld);
    }
    // Contiguous groups of the body's joints onto the parts.
    for (int k = 0; k < count; ++k) {
      RigidJoint& joint = joints[on[b][k]];
      const int target = part[k * parts / count];
      if (joint.body1 == b) joint.body1 = target;
      if (joint.body2 == b) joint.body2 = target;
    }
  }
  return owner;
}

}  // namespace affix
