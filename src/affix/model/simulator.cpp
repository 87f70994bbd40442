#include "affix/model/simulator.hpp"

#include <algorithm>

namespace affix {

bool SolverCapabilities::supports(JointType type) const {
  return std::find(joints.begin(), joints.end(), type) != joints.end();
}

}  // namespace affix
