#include "affix/scene/generate/rod_block.hpp"

#include "affix/scene/generate/generated_scene.hpp"
#include "affix/scene/generate/option_checks.hpp"

namespace affix::generate {

Scene rod_block(const RodBlockOptions& options) {
  require_number("--rod-mass", options.rod_mass, 1e-3, 1e9);
  require_number("--block-mass", options.block_mass, 1e-3, 1e9);
  Scene scene = make_scene("rod_block");
  scene.settings.solver = "impulse";
  scene.settings.dt = 0.25;
  scene.settings.duration = 20.0;
  scene.settings.solver_settings["impulse"] = {{"integration", "velocity_verlet"}};
  BodyDef rod;
  rod.name = "rod";
  rod.shape = BoxShape{Vec3(4.0, 0.05, 0.05)};
  rod.position = Vec3(2.0, 0, 0);
  rod.mass = options.rod_mass;
  const int r = add_body(scene, std::move(rod));
  BodyDef block;
  block.name = "block";
  block.shape = BoxShape{Vec3(1.0, 1.0, 1.0)};
  block.position = Vec3(4.5, 0, 0);
  block.mass = options.block_mass;
  const int b = add_body(scene, std::move(block));
  JointDef& hinge = add_joint(scene, JointType::hinge, r, -1);
  hinge.anchor = Vec3::Zero();
  hinge.axis = Vec3::UnitY();
  add_joint(scene, JointType::fixed, b, r).anchor = Vec3(4.0, 0, 0);
  return scene;
}

}  // namespace affix::generate
