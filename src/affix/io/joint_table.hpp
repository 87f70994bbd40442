#pragma once
// What joints.csv needs of a scene's joints, taken from them before the scene is dropped: each joint's
// row prefix (its name and its bodies' names) and the rule its gap is measured by (joint_gap,
// joints_writer.hpp). A JointDef is about 750 B and a run used to keep every one of them to its end for
// these few fields: 0.75 GB of a 10⁶-joint chain's run. This is about 60 B per joint.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "affix/model/records.hpp"
#include "affix/model/slack_cable.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// How one joint's gap is read from its record (joints_writer.hpp, joint_gap): the part of a JointDef
/// that the measure depends on.
struct JointGapRule {
  enum class Kind : std::uint8_t {
    anchors,    ///< |a₁ − a₂|
    off_line,   ///< the part of a₁ − a₂ off the line through a₂ along axis2
    off_plane,  ///< |(a₁ − a₂)·axis2|
    length,     ///< | |a₁ − a₂| − length |
    range,      ///< how far |a₁ − a₂| lies outside [min, max]
    slack,      ///< a slack cable: how far a₁ − a₂ lies from its rope's range (model/slack_cable.hpp)
  };
  Kind kind = Kind::anchors;
  double length = 0.0;  ///< length; slack: σ (the struct stays 32 B: a 10⁶-joint chain keeps one each)
  double min = -std::numeric_limits<double>::infinity();  ///< range: absent bound = unbounded
  double max = std::numeric_limits<double>::infinity();  ///< range; slack: the reach r

  static JointGapRule of(const JointDef& joint);
  /// A `cable` joint of a scene that sets settings.compliant.slack_cables (`bodies` the scene's): the
  /// slack rule, or, where the joint cannot go slack (r = 0), of().
  static JointGapRule of_slack_cable(const JointDef& joint, const std::vector<BodyDef>& bodies);
  double operator()(const JointRecord& record) const;
};

/// Whether the scene runs on the compliant solver with settings.compliant.slack_cables true.
bool slack_cables(const Settings& settings);

class JointTable {
 public:
  JointTable() = default;
  /// Implicit, so that a writer can be given the scene's joints directly.
  JointTable(const std::vector<JointDef>& joints);  // NOLINT(google-explicit-constructor)
  /// The scene's joints, a cable's gap by the slack rule where the scene runs on compliant with
  /// settings.compliant.slack_cables (slack_cables()).
  explicit JointTable(const Scene& scene);

  std::size_t size() const { return rules_.size(); }
  /// "joint,body1,body2", CSV-quoted where needed.
  std::string_view prefix(std::size_t joint) const;
  /// The joint's name, body1 and body2 (`world` for none) as the scene gives them (the prefix unquoted).
  std::vector<std::string> names(std::size_t joint) const;
  double gap(std::size_t joint, const JointRecord& record) const { return rules_[joint](record); }

 private:
  std::string prefixes_;                 // every joint's prefix, one after the other
  std::vector<std::size_t> prefix_ends_;  // where each one ends in prefixes_
  std::vector<JointGapRule> rules_;
};

}  // namespace affix
