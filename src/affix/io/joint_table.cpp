#include "affix/io/joint_table.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "affix/io/csv_file.hpp"
#include "affix/io/csv_reader.hpp"

namespace affix {

JointGapRule JointGapRule::of(const JointDef& joint) {
  JointGapRule rule;
  switch (joint.type) {
    case JointType::prismatic: rule.kind = Kind::off_line; break;
    case JointType::slider: rule.kind = joint.normal ? Kind::off_plane : Kind::off_line; break;
    case JointType::distance:
      if (!joint.length && (joint.min_length || joint.max_length)) {
        rule.kind = Kind::range;
        if (joint.min_length) rule.min = *joint.min_length;
        if (joint.max_length) rule.max = *joint.max_length;
      } else {
        rule.kind = Kind::length;
        rule.length = joint.length.value_or((joint.anchor1 - joint.anchor2).norm());
      }
      break;
    case JointType::ball:
    case JointType::hinge:
    case JointType::universal:
    case JointType::fixed:
    case JointType::cone_twist:
    case JointType::cable: break;
  }
  return rule;
}

double JointGapRule::operator()(const JointRecord& r) const {
  const Vec3 gap = r.anchor1 - r.anchor2;
  switch (kind) {
    case Kind::off_line: return (gap - gap.dot(r.axis2) * r.axis2).norm();
    case Kind::off_plane: return std::abs(gap.dot(r.axis2));
    case Kind::length: return std::abs(gap.norm() - length);
    case Kind::range: {
      const double d = gap.norm();
      return std::max({0.0, min - d, d - max});  // an absent bound is infinite: never the largest
    }
    case Kind::slack: return slack_cable_gap(SlackCable{length, max}, gap, r.axis2);
    case Kind::anchors: break;
  }
  return gap.norm();
}

JointGapRule JointGapRule::of_slack_cable(const JointDef& joint, const std::vector<BodyDef>& bodies) {
  const auto origin = [&](int b) { return b >= 0 ? std::optional<Vec3>(bodies[static_cast<std::size_t>(b)].position) : std::nullopt; };
  JointGapRule rule = of(joint);
  const SlackCable cable = slack_cable(joint.anchor, joint.axis.normalized(), *origin(joint.body1_index), origin(joint.body2_index));
  if (cable.reach > 0.0) rule.kind = Kind::slack, rule.length = cable.sign, rule.max = cable.reach;
  return rule;
}

bool slack_cables(const Settings& settings) {
  if (settings.solver != "compliant") return false;
  const auto block = settings.solver_settings.find("compliant");
  if (block == settings.solver_settings.end() || !block->second.is_object()) return false;
  const auto value = block->second.find("slack_cables");
  return value != block->second.end() && *value == true;
}

JointTable::JointTable(const Scene& scene) : JointTable(scene.joints) {
  if (!slack_cables(scene.settings)) return;
  for (std::size_t k = 0; k < scene.joints.size(); ++k)
    if (scene.joints[k].type == JointType::cable) rules_[k] = JointGapRule::of_slack_cable(scene.joints[k], scene.bodies);
}

JointTable::JointTable(const std::vector<JointDef>& joints) {
  prefix_ends_.reserve(joints.size());
  rules_.reserve(joints.size());
  for (const JointDef& j : joints) {
    prefixes_ += csv_field(j.name);
    prefixes_ += ',';
    prefixes_ += csv_field(j.body1);
    prefixes_ += ',';
    prefixes_ += csv_field(j.body2);
    prefix_ends_.push_back(prefixes_.size());
    rules_.push_back(JointGapRule::of(j));
  }
  prefixes_.shrink_to_fit();
}

std::string_view JointTable::prefix(std::size_t joint) const {
  const std::size_t begin = joint == 0 ? 0 : prefix_ends_[joint - 1];
  return std::string_view(prefixes_).substr(begin, prefix_ends_[joint] - begin);
}

std::vector<std::string> JointTable::names(std::size_t joint) const { return split_csv_line(prefix(joint)); }

}  // namespace affix
