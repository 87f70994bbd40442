#pragma once
// Divergence seen from the joints, whatever the back-end: a joint whose two anchors have come apart by a
// sizeable fraction of the scene is no longer a joint, and a run that goes on from there reports physics
// it is not doing (a compliant chain at h = 0.1 under constraint damping tore at step 1 and ran to a
// 3,979 m gap with "completed yes"). The run loop (run.cpp) measures every joint's gap at every output
// frame (the gap of joints.csv, joint_table.hpp) and stops the run with a SimulationError naming the
// joint when one passes its tear limit:
//   - a rigid joint: a tenth of the scene's size L. A healthy run keeps its joints to the solver's
//     joint_gap (10⁻⁹ … 10⁻³ m, model/simulator.hpp), many decades below;
//   - a `cable` joint is rigid by its axial and shear stiffness (10¹² N/m by default); under
//     settings.compliant.slack_cables its gap leaves out the slack its rope allows (joint_table.hpp,
//     model/slack_cable.hpp), so it tears as a rigid joint does (it had ten times L while slack joints
//     could slide along their axes without bound);
//   - a spring (a joint with `stiffness`, a cable whose axial or shear stiffness is below 1/kSoftCompliance,
//     or every joint of a compliant scene that sets settings.compliant.compliance above kSoftCompliance):
//     not checked. Its stretch is set by its
//     stiffness and the loads, which the scene's size does not bound (1 kg on a 1 N/m spring swings to
//     19.6 m, healthy); a runaway spring is left to the solvers' own runaway checks.
// A distance joint whose bodies start away from its `length` (or outside its range) has that initial gap
// added to its limit: the joint pulls them together, and its gap at t = 0 is the scene's, not a tear.
// L is the diagonal of the box around the jointed bodies at t = 0 (their positions widened by their
// primitive shapes' bounding radii; a mesh file counts by its origin) and the joints' anchors. Bodies no
// joint holds are left out: a marker or a wall 1 km away would otherwise lift a 3 cm net's limit to 100 m.
// A scene whose L is 0 (one mesh-file body on an anchor at its origin) has no scale, and is not checked.
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "affix/io/joint_table.hpp"
#include "affix/model/records.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

class JointTear {
 public:
  /// A joint that is not a spring tears at this fraction of L.
  static constexpr double kRigidFraction = 0.1;
  /// settings.compliant.compliance (m/N) above this makes a compliant scene's joints springs.
  static constexpr double kSoftCompliance = 1e-9;

  JointTear() = default;
  /// The scene's size and which of its joints are springs (scene order).
  explicit JointTear(const Scene& scene);

  double scene_size() const { return size_; }
  /// The gap (m) past which joint `joint` counts as torn apart; infinite for a spring.
  double limit(std::size_t joint) const {
    if (spring_[joint]) return std::numeric_limits<double>::infinity();
    return kRigidFraction * size_ + (initial_.empty() ? 0.0 : initial_[joint]);
  }

  struct Tear {
    int joint = -1;      ///< scene index
    double gap = 0.0;    ///< m
    double limit = 0.0;  ///< m
  };
  /// The joint, among `records`, whose gap passes its limit by the largest factor; nothing when none does.
  std::optional<Tear> find(const JointTable& joints, const std::vector<JointRecord>& records) const;
  /// The SimulationError's text for `tear`: the joint and its bodies by name, its gap and the limit.
  std::string message(const JointTable& joints, const Tear& tear) const;

 private:
  double size_ = 0.0;
  std::vector<bool> spring_;  // per joint, a bit: a 10⁶-joint chain keeps 125 kB
  std::vector<double> initial_;  // per joint, its gap at t = 0; empty when every one is 0
};

}  // namespace affix
