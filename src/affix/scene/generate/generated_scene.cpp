#include "affix/scene/generate/generated_scene.hpp"

#include <cassert>
#include <utility>

#include "affix/scene/time_steps.hpp"

namespace affix::generate {

std::optional<double> output_fps_for(double dt, double duration) {
  if (kOutputFps * dt > 1.0) return std::nullopt;
  if (frame_limit_breach(duration, kOutputFps)) return std::nullopt;
  return kOutputFps;
}

Scene make_scene(const std::string& name) {
  Scene scene;
  scene.name = name;
  scene.settings.dt = kTimeStep;
  scene.settings.duration = kDuration;
  scene.settings.output_fps = output_fps_for(kTimeStep, kDuration);
  return scene;
}

int add_body(Scene& scene, BodyDef body) {
  scene.bodies.push_back(std::move(body));
  return static_cast<int>(scene.bodies.size()) - 1;
}

JointDef& add_joint(Scene& scene, JointType type, int body1, int body2) {
  assert(body1 >= 0 && body1 < static_cast<int>(scene.bodies.size()));
  assert(body2 >= -1 && body2 < static_cast<int>(scene.bodies.size()) && body2 != body1);
  JointDef joint;
  joint.type = type;
  joint.body1 = scene.bodies[body1].name;
  joint.body2 = body2 < 0 ? std::string("world") : scene.bodies[body2].name;
  joint.body1_index = body1;
  joint.body2_index = body2;
  joint.name = joint.body1 + "-" + joint.body2;
  scene.joints.push_back(std::move(joint));
  return scene.joints.back();
}

Quat rotation_from_z_to(const Vec3& direction) {
  return Quat::FromTwoVectors(Vec3::UnitZ(), direction.normalized());
}

}  // namespace affix::generate
