#include "affix/scene/generate/scissor_lift.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {
namespace {

constexpr double kBar = 1.0, kBarWidth = 0.04, kOffset = 0.03;  // m
constexpr double kDrop = 0.4, kBaseHeight = 0.1, kPlatformHeight = 0.05;  // m
constexpr double kBaseMass = 50.0, kPlatformMass = 20.0;           // kg

/// A bar from `from` to `to` in the xz-plane at y = `y`.
int add_bar(Scene& scene, const std::string& name, const Vec3& from, const Vec3& to, double y) {
  BodyDef b;
  b.name = name;
  b.shape = BoxShape{Vec3(kBar, kBarWidth, kBarWidth)};
  b.position = 0.5 * (from + to) + Vec3(0, y, 0);
  const Vec3 d = (to - from).normalized();
  b.rotation = Quat(Eigen::AngleAxisd(-std::atan2(d.z(), d.x()), Vec3::UnitY()));  // body x along the bar
  b.collision = {2, 1};
  return add_body(scene, std::move(b));
}

void hinge(Scene& scene, int body1, int body2, const Vec3& anchor) {
  JointDef& j = add_joint(scene, JointType::hinge, body1, body2);
  j.anchor = anchor;
  j.axis = Vec3::UnitY();
}

}  // namespace

Scene scissor_lift(const ScissorLiftOptions& options) {
  require_count("--segments", options.segments, 1, 220);
  require_number("--angle", options.angle_deg, 10.0, 80.0);
  const double alpha = options.angle_deg * std::numbers::pi / 180.0;
  const double a = 0.5 * kBar * std::cos(alpha), rise = kBar * std::sin(alpha);
  Scene scene = make_scene("scissor_lift");
  scene.settings.solver = "impulse";
  scene.settings.dt = 0.01;
  scene.settings.duration = 2.0;
  scene.ground = Ground{};
  BodyDef base;
  base.name = "base";
  base.shape = BoxShape{Vec3(2 * a + 0.2, 0.3, kBaseHeight)};
  base.position = Vec3(0, 0, kDrop + 0.5 * kBaseHeight);
  base.mass = kBaseMass;
  const int base_index = add_body(scene, std::move(base));
  const double z0 = kDrop + kBaseHeight;
  int below_a = base_index, below_b = base_index;  // what the next segment's lower ends hinge to
  for (long long k = 0; k < options.segments; ++k) {
    const double bottom = z0 + static_cast<double>(k) * rise, top = bottom + rise;
    const std::string s = std::to_string(k);
    const int A = add_bar(scene, "a" + s, Vec3(-a, 0, bottom), Vec3(a, 0, top), -kOffset);
    const int B = add_bar(scene, "b" + s, Vec3(a, 0, bottom), Vec3(-a, 0, top), kOffset);
    hinge(scene, A, B, Vec3(0, 0, bottom + 0.5 * rise));  // the X's middle
    hinge(scene, A, below_b, Vec3(-a, 0, bottom));         // lower ends: on the previous B's upper end
    hinge(scene, B, below_a, Vec3(a, 0, bottom));          // and on the previous A's (or the base)
    below_a = A;
    below_b = B;
  }
  BodyDef platform;
  platform.name = "platform";
  platform.shape = BoxShape{Vec3(2 * a + 0.2, 0.3, kPlatformHeight)};
  const double z_top = z0 + static_cast<double>(options.segments) * rise;
  platform.position = Vec3(0, 0, z_top + 0.5 * kPlatformHeight);
  platform.mass = kPlatformMass;
  const int p = add_body(scene, std::move(platform));
  hinge(scene, p, below_a, Vec3(a, 0, z_top));
  hinge(scene, p, below_b, Vec3(-a, 0, z_top));
  return scene;
}

}  // namespace affix::generate
