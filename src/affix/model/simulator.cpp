#include "affix/model/simulator.hpp"

#include <algorithm>
#include <string>

#include "affix/error.hpp"

namespace affix {

bool SolverCapabilities::supports(JointType type) const {
  return std::find(joints.begin(), joints.end(), type) != joints.end();
}

namespace {

[[noreturn]] void not_supported(const Simulator& simulator, const char* request) {
  throw InputError(std::string(request) + " is not supported by the " + simulator.name() + " solver");
}

}  // namespace

void Simulator::set_state(const std::vector<BodyPose>&, const std::vector<BodyVelocity>&) {
  not_supported(*this, "set_state");
}

void Simulator::apply_force(int, const Vec3&, const Vec3&) { not_supported(*this, "apply_force"); }

void Simulator::set_kinematic_target(int, const BodyPose&) { not_supported(*this, "set_kinematic_target"); }

}  // namespace affix
