#include "affix/io/joint_tear.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>


#include <Eigen/Geometry>

#include "affix/io/short_number.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {
namespace {

/// The radius of a ball around the shape's origin that holds it; 0 where that needs a file read.
double bounding_radius(const Shape& shape) {
  struct Radius {
    double operator()(const BoxShape& s) const { return 0.5 * s.size.norm(); }
    double operator()(const SphereShape& s) const { return s.radius; }
    double operator()(const CapsuleShape& s) const { return 0.5 * s.length + s.radius; }
    double operator()(const CylinderShape& s) const { return std::hypot(0.5 * s.length, s.radius); }
    double operator()(const TorusShape& s) const { return s.major + s.minor; }
    double operator()(const MeshShape& s) const {
      double r = 0.0;
      for (const Vec3& v : s.vertices) r = std::max(r, s.scale.cwiseProduct(v).norm());
      return r;
    }
    double operator()(const CompoundShape& s) const {
      double r = 0.0;
      for (const ShapePart& part : s.parts)
        r = std::max(r, part.position.norm() + part.scale.cwiseAbs().maxCoeff() * bounding_radius(part.shape));
      return r;
    }
  };
  return std::visit(Radius{}, shape);
}

/// settings.compliant's `key` when the scene runs on compliant and sets it; null otherwise.
nlohmann::json compliant_setting(const Settings& settings, const char* key) {
  if (settings.solver != "compliant") return nullptr;
  const auto block = settings.solver_settings.find("compliant");
  if (block == settings.solver_settings.end() || !block->second.is_object()) return nullptr;
  const auto value = block->second.find(key);
  return value != block->second.end() ? *value : nlohmann::json(nullptr);
}

}  // namespace

JointTear::JointTear(const Scene& scene) {
  Eigen::AlignedBox3d box;
  std::vector<bool> jointed(scene.bodies.size(), false);
  for (const JointDef& joint : scene.joints)
    for (const int b : {joint.body1_index, joint.body2_index})
      if (b >= 0) jointed[static_cast<std::size_t>(b)] = true;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    if (!jointed[i]) continue;
    const BodyDef& body = scene.bodies[i];
    const double r = bounding_radius(body.shape);
    box.extend(body.position - Vec3::Constant(r));
    box.extend(body.position + Vec3::Constant(r));
  }
  const nlohmann::json compliance = compliant_setting(scene.settings, "compliance");
  const bool soft = compliance.is_number() && compliance.get<double>() > kSoftCompliance;
  spring_.reserve(scene.joints.size());
  for (const JointDef& joint : scene.joints) {
    if (joint.type == JointType::distance) {
      box.extend(joint.anchor1);
      box.extend(joint.anchor2);
      JointRecord start;  // the anchors as the scene places them
      start.anchor1 = joint.anchor1;
      start.anchor2 = joint.anchor2;
      const double gap = JointGapRule::of(joint)(start);
      if (gap > 0.0) {
        initial_.resize(scene.joints.size(), 0.0);
        initial_[spring_.size()] = gap;
      }
    } else {
      box.extend(joint.anchor);
    }
    const bool soft_cable =
        joint.type == JointType::cable && std::min(joint.axial.stiffness, joint.shear.stiffness) < 1.0 / kSoftCompliance;
    spring_.push_back(soft || soft_cable || joint.stiffness.has_value());
  }
  size_ = box.isEmpty() ? 0.0 : box.diagonal().norm();
}

std::optional<JointTear::Tear> JointTear::find(const JointTable& joints, const std::vector<JointRecord>& records) const {
  if (!(size_ > 0.0)) return std::nullopt;
  std::optional<Tear> worst;
  for (const JointRecord& record : records) {
    const auto j = static_cast<std::size_t>(record.joint);
    const double gap = joints.gap(j, record), bound = limit(j);
    // !(gap <= bound): a gap that is not a number has torn too.
    if (!(gap <= bound) && (!worst || !(gap / bound <= worst->gap / worst->limit)))
      worst = Tear{record.joint, gap, bound};
  }
  return worst;
}

std::string JointTear::message(const JointTable& joints, const Tear& tear) const {
  // The table's prefix is "joint,body1,body2" as joints.csv writes it; a name with a comma or a quote is
  // CSV-quoted there, and then the prefix is shown as it stands.
  const std::string prefix(joints.prefix(static_cast<std::size_t>(tear.joint)));
  std::string who = "joint " + std::to_string(tear.joint) + " (joint,body1,body2 = " + excerpt(prefix) + ")";
  const std::size_t first = prefix.find(','), second = prefix.find(',', first + 1);
  if (prefix.find('"') == std::string::npos && second != std::string::npos && prefix.find(',', second + 1) == std::string::npos)
    who = "joint '" + excerpt(prefix.substr(0, first)) + "' (between '" + excerpt(prefix.substr(first + 1, second - first - 1)) +
          "' and '" + excerpt(prefix.substr(second + 1)) + "')";
  return who + " came apart: a gap of " + short_number(tear.gap) + " m, past its limit of " + short_number(tear.limit) +
         " m (a tenth of the scene's size, " + short_number(size_) + " m" +
         (initial_.empty() || initial_[static_cast<std::size_t>(tear.joint)] == 0.0
              ? std::string()
              : ", plus its gap at t = 0, " + short_number(initial_[static_cast<std::size_t>(tear.joint)]) + " m") +
         "): the simulation diverged (try a smaller dt, or see the solver's stabilization in the README)";
}

}  // namespace affix
