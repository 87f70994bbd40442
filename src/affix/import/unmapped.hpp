#pragma once
// What an imported model has that affix cannot represent (actuators, tendons, sensors, sites, joint
// springs, ...): counted while the model is mapped and reported as one warning, never dropped silently.
#include <map>
#include <string>

namespace affix {

class Unmapped {
 public:
  /// Counts `n` more of `what` ("actuators", "joint stiffness (springs)"); n ≤ 0 adds nothing.
  void add(const std::string& what, int n = 1) {
    if (n > 0) counts_[what] += n;
  }
  bool empty() const { return counts_.empty(); }
  const std::map<std::string, int>& counts() const { return counts_; }
  /// "21 actuators, 2 cameras, ..." in name order; empty when nothing was left out.
  std::string text() const;

 private:
  std::map<std::string, int> counts_;
};

}  // namespace affix
