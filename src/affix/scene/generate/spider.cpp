#include "affix/scene/generate/spider.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {
namespace {

constexpr double kBodyRadius = 0.5, kBodyThickness = 0.1, kHeight = 1.0;  // m
constexpr double kThigh = 0.6, kShin = 0.8, kLegRadius = 0.02;            // m
constexpr int kResolution = 8;

/// A capsule leg part from `from` to `to` (tip to tip).
int add_part(Scene& scene, const std::string& name, const Vec3& from, const Vec3& to) {
  BodyDef b;
  b.name = name;
  b.shape = CapsuleShape{kLegRadius, (to - from).norm() - 2 * kLegRadius, kResolution};
  b.position = 0.5 * (from + to);
  b.rotation = rotation_from_z_to(to - from);
  b.collision = {2, 1};  // legs crowd each other at the rim of a many-legged body: they never collide
  return add_body(scene, std::move(b));
}

}  // namespace

Scene spider(const SpiderOptions& options) {
  require_count("--legs", options.legs, 1, 1000);
  Scene scene = make_scene("spider");
  scene.settings.solver = "impulse";
  scene.settings.duration = 1.0;
  BodyDef body;
  body.name = "body";
  body.shape = CylinderShape{kBodyRadius, kBodyThickness, 48};
  body.position = Vec3(0, 0, kHeight);
  const int centre = add_body(scene, std::move(body));
  for (long long k = 0; k < options.legs; ++k) {
    const double phi = 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(options.legs);
    const Vec3 out(std::cos(phi), std::sin(phi), 0), tangent(-std::sin(phi), std::cos(phi), 0);
    const Vec3 hip = Vec3(0, 0, kHeight) + kBodyRadius * out;
    const Vec3 knee = hip + kThigh * (std::cos(std::numbers::pi / 6) * out + std::sin(std::numbers::pi / 6) * Vec3::UnitZ());
    const Vec3 foot = knee + kShin * (std::cos(std::numbers::pi / 3) * out - std::sin(std::numbers::pi / 3) * Vec3::UnitZ());
    const std::string leg = "leg" + std::to_string(k);
    const int thigh = add_part(scene, leg + "_thigh", hip, knee);
    const int shin = add_part(scene, leg + "_shin", knee, foot);
    add_joint(scene, JointType::ball, thigh, centre).anchor = hip;
    JointDef& j = add_joint(scene, JointType::hinge, shin, thigh);
    j.anchor = knee;
    j.axis = tangent;
  }
  return scene;
}

}  // namespace affix::generate
