#include "affix/solvers/mabd/joint_limits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace affix {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool is_angle(JointDof dof) { return dof != JointDof::slide && dof != JointDof::distance; }

const Vec12& state2(const ModelJoint& j, const std::vector<Vec12>& q) { return q[j.body2 >= 0 ? j.body2 : j.body1]; }

}  // namespace

JointLimits::JointLimits(const Model& model, const std::vector<double>& edges, const std::vector<int>& active,
                         const std::vector<Vec12>& q0)
    : model_(&model), edges_(edges), clamps_(model.joints.size()) {
  for (int k : active) {
    const JointDef& d = model.joints[k].def;
    const auto add = [&](JointDof dof, double min, double max) { limits_.push_back({k, dof, min, max}); };
    switch (d.type) {
      case JointType::hinge:
        if (d.angle_limits) add(JointDof::hinge_angle, d.angle_limits->min, d.angle_limits->max);
        break;
      case JointType::prismatic:
      case JointType::slider:
        if (d.limits) add(JointDof::slide, (*d.limits)[0], (*d.limits)[1]);
        break;
      case JointType::cone_twist:
        if (d.twist_limits) add(JointDof::twist, d.twist_limits->min, d.twist_limits->max);
        if (d.swing1_limits) add(JointDof::swing1, d.swing1_limits->min, d.swing1_limits->max);
        if (d.swing2_limits) add(JointDof::swing2, d.swing2_limits->min, d.swing2_limits->max);
        break;
      case JointType::distance:
        if (compact_row_count(d) > 0) distance_joints_.push_back(k);
        else add(JointDof::distance, d.min_length.value_or(-kInf), d.max_length.value_or(kInf));
        break;
      default: break;
    }
  }
  clamped_.assign(limits_.size(), -1);
  end_step(q0);
}

double JointLimits::value(const Limit& limit, const std::vector<Vec12>& q) const {
  const ModelJoint& j = model_->joints[limit.joint];
  const double raw = joint_dof(j, edges_[limit.joint], q[j.body1], state2(j, q), limit.dof);
  if (!is_angle(limit.dof)) return raw;
  // The turn nearest the step's start: a step turns a joint by far less than π.
  return limit.reference + std::remainder(raw - limit.reference, 2.0 * std::numbers::pi);
}

double JointLimits::scale(const Limit& limit) const { return is_angle(limit.dof) ? 1.0 : edges_[limit.joint]; }

void JointLimits::begin_step() {
  // Only a limited joint is ever clamped: the others' lists are not touched (24 MB at 10⁶ joints).
  for (const Limit& limit : limits_) clamps_[limit.joint].clear();
  clamp_count_ = 0;
  std::fill(clamped_.begin(), clamped_.end(), -1);
  passes_ = 0;
  hit_cap_ = false;
}

bool JointLimits::another_pass(const std::vector<Vec12>& q, bool converged) {
  bool off = false, held = false;
  for (std::size_t i = 0; i < limits_.size(); ++i) {
    const Limit& limit = limits_[i];
    const double v = value(limit, q), tolerance = kTolerance * scale(limit);
    held = held || clamped_[i] >= 0;
    if (clamped_[i] >= 0) {
      off = off || std::abs(v - clamps_[limit.joint][clamped_[i]].bound) > tolerance;
    } else if (v > limit.max + tolerance || v < limit.min - tolerance) {
      // Clamp to the nearest valid setup (§4.6): the bound it passed.
      clamped_[i] = static_cast<int>(clamps_[limit.joint].size());
      clamps_[limit.joint].push_back({limit.dof, v > limit.max ? limit.max : limit.min});
      ++clamp_count_;
      off = true;
    }
  }
  for (int k : distance_joints_) {
    const ModelJoint& j = model_->joints[k];
    const CompactRows rows = compact_rows(j, edges_[k], q[j.body1], state2(j, q), clamps_[k]);
    off = off || std::abs(rows.value[0]) > kTolerance * edges_[k];
  }
  if (!off && (converged || !held)) return false;
  if (passes_ == kMaxPasses) {
    hit_cap_ = true;
    return false;
  }
  ++passes_;
  return true;
}

void JointLimits::end_step(const std::vector<Vec12>& q) {
  for (Limit& limit : limits_) limit.reference = value(limit, q);
}

double JointLimits::max_excess(const std::vector<Vec12>& q) const {
  double worst = 0.0;
  for (const Limit& limit : limits_) {
    const double v = value(limit, q);
    worst = std::max({worst, (v - limit.max) * scale(limit), (limit.min - v) * scale(limit)});
  }
  return worst;
}

}  // namespace affix
