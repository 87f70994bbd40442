#include "affix/scene/generate/pulley.hpp"

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

namespace {

constexpr double kWheelRadius = 0.3;     // m
constexpr double kWheelThickness = 0.05; // m
constexpr double kArm = kWheelRadius + 0.06;  // m from the axle to where a rope hangs
constexpr double kLinkRadius = 0.01;     // m
constexpr double kLinkLength = 0.08;     // m, the cylindrical part
constexpr double kPitch = kLinkLength + 2.0 * kLinkRadius;
constexpr double kLoad = 0.1;            // m, box edge
constexpr double kBarRadius = 0.015;     // m
constexpr double kBarDrop = 0.025;       // m from the boxes' bottoms to the bar's axis
constexpr double kDensity = 1000.0;      // kg/m³
constexpr double kMaxRatio = 1e3;
constexpr int kResolution = 12;
constexpr int kWheelResolution = 32;

}  // namespace

Scene pulley(const PulleyOptions& options) {
  // Two links and a load put the bar 0.01 m below the wheel; one would put it through the wheel.
  require_count("--links", options.links, 2, (kMaxBodies - 4) / 2);
  require_number("--load-ratio", options.load_ratio, 1.0 / kMaxRatio, kMaxRatio);
  Scene scene = make_scene("pulley");
  const long long n = options.links;
  const double rope = kPitch * static_cast<double>(n);
  const Vec3 centre(0.0, 0.0, rope + 0.5);

  BodyDef wheel;
  wheel.name = "wheel";
  wheel.shape = CylinderShape{kWheelRadius, kWheelThickness, kWheelResolution};
  wheel.position = centre;
  wheel.rotation = rotation_from_z_to(Vec3::UnitY());
  const int wheel_index = add_body(scene, std::move(wheel));
  JointDef& axle = add_joint(scene, JointType::hinge, wheel_index, -1);
  axle.anchor = centre;
  axle.axis = Vec3::UnitY();

  const Quat down = rotation_from_z_to(-Vec3::UnitZ());
  int loads[2] = {-1, -1};
  for (int side = 0; side < 2; ++side) {
    const char* name = side == 0 ? "left" : "right";
    const Vec3 rim = centre + Vec3::UnitX() * (side == 0 ? -kArm : kArm);
    int above = wheel_index;
    for (long long i = 0; i < n; ++i) {
      BodyDef link;
      link.name = std::string(name) + std::to_string(i);
      link.shape = CapsuleShape{kLinkRadius, kLinkLength, kResolution};
      link.position = rim - Vec3::UnitZ() * (kPitch * (static_cast<double>(i) + 0.5));
      link.rotation = down;
      const int index = add_body(scene, std::move(link));
      add_joint(scene, JointType::ball, index, above).anchor = rim - Vec3::UnitZ() * (kPitch * static_cast<double>(i));
      above = index;
    }
    BodyDef load;
    load.name = std::string(name) + "_load";
    load.shape = BoxShape{Vec3::Constant(kLoad)};
    load.density = side == 0 ? kDensity * options.load_ratio : kDensity;
    load.position = rim - Vec3::UnitZ() * (rope + 0.5 * kLoad);
    loads[side] = add_body(scene, std::move(load));
    add_joint(scene, JointType::ball, loads[side], above).anchor = rim - Vec3::UnitZ() * rope;
  }

  // The bar closes the loop: its joints sit at the middle of each box's bottom face.
  const double bottom = centre.z() - rope - kLoad;
  BodyDef bar;
  bar.name = "bar";
  bar.shape = CapsuleShape{kBarRadius, 2.0 * kArm, kResolution};
  bar.position = {0.0, 0.0, bottom - kBarDrop};
  bar.rotation = rotation_from_z_to(Vec3::UnitX());
  const int bar_index = add_body(scene, std::move(bar));
  for (int side = 0; side < 2; ++side) {
    add_joint(scene, JointType::ball, bar_index, loads[side]).anchor =
        Vec3((side == 0 ? -kArm : kArm), 0.0, bottom);
  }
  return scene;
}

}  // namespace affix::generate
