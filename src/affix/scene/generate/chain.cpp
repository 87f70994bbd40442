#include "affix/scene/generate/chain.hpp"

#include <cmath>
#include <numbers>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"
#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

namespace {

constexpr double kLinkRadius = 0.01;    // m
constexpr double kLinkLength = 0.08;    // m, the cylindrical part; tip to tip it is 0.1 m
constexpr double kPitch = kLinkLength + 2.0 * kLinkRadius;
constexpr double kBoxSide = 2.0 * kLinkRadius;  // m, the box link's cross-section edge
constexpr double kDensity = 1000.0;     // kg/m³ of the first link
// Twelve segments around: a thin link looks round with them, and 10⁵ links stay far under the
// loader's triangle limit.
constexpr int kResolution = 12;
constexpr double kMaxRatio = 1e6;       // masses spanning 12 orders and more are no longer a chain

double capsule_volume() {
  const double r = kLinkRadius;
  return std::numbers::pi * r * r * kLinkLength + 4.0 / 3.0 * std::numbers::pi * r * r * r;
}

double link_volume(ChainLink link) {
  return link == ChainLink::box ? kPitch * kBoxSide * kBoxSide : capsule_volume();
}

void check(const ChainOptions& options) {
  require_count("--links", options.links, 1, kMaxBodies);
  require_number("--end-mass-ratio", options.end_mass_ratio, 1.0 / kMaxRatio, kMaxRatio);
  if (options.links == 1 && options.end_mass_ratio != 1.0) {
    throw InputError("--end-mass-ratio " + number_text(options.end_mass_ratio) +
                     ": a chain of one link has no end mass to grade (give --links 2 or more)");
  }
}

}  // namespace

const char* to_string(ChainJoint joint) { return joint == ChainJoint::ball ? "ball" : "hinge"; }

const char* to_string(ChainLink link) { return link == ChainLink::box ? "box" : "capsule"; }

ChainLink parse_chain_link(std::string_view text) {
  if (text == "capsule") return ChainLink::capsule;
  if (text == "box") return ChainLink::box;
  throw InputError("--link " + excerpt(text) + ": unknown link (expected capsule or box)");
}

ChainJoint parse_chain_joint(std::string_view text) {
  if (text == "ball") return ChainJoint::ball;
  if (text == "hinge") return ChainJoint::hinge;
  throw InputError("--joint " + excerpt(text) + ": unknown joint (expected ball or hinge)");
}

Scene chain(const ChainOptions& options) {
  check(options);
  Scene scene = make_scene("chain");
  const long long n = options.links;
  const Vec3 pivot(0.0, 0.0, kPitch * static_cast<double>(n) + 0.1);
  const double first_mass = kDensity * link_volume(options.link);
  const Quat along_x = rotation_from_z_to(Vec3::UnitX());

  scene.bodies.reserve(static_cast<std::size_t>(n));
  scene.joints.reserve(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) {
    BodyDef link;
    link.name = "link" + std::to_string(i);
    link.position = pivot + Vec3::UnitX() * (kPitch * (static_cast<double>(i) + 0.5));
    if (options.link == ChainLink::box) {
      link.shape = BoxShape{Vec3(kPitch, kBoxSide, kBoxSide)};  // tip to tip along x, as the capsule
    } else {
      link.shape = CapsuleShape{kLinkRadius, kLinkLength, kResolution};
      link.rotation = along_x;
    }
    // Geometric grading: equal mass ratios between neighbours, R^(1/(n−1)) each; the last is R exactly.
    const double along = n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.0;
    link.mass = first_mass * std::pow(options.end_mass_ratio, along);
    const int index = add_body(scene, std::move(link));

    const int parent = index - 1;  // −1 for link 0: the world
    const bool hinge = options.joint == ChainJoint::hinge;
    JointDef& joint = add_joint(scene, hinge ? JointType::hinge : JointType::ball, index, parent);
    joint.anchor = pivot + Vec3::UnitX() * (kPitch * static_cast<double>(i));
    if (hinge) joint.axis = Vec3::UnitY();  // the chain swings in the xz-plane
  }
  return scene;
}

}  // namespace affix::generate
