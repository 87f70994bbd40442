#include "affix/scene/scene.hpp"

namespace affix {

std::optional<int> Scene::body_index(const std::string& name) const {
  if (name == "world") return -1;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].name == name) return static_cast<int>(i);
  }
  return std::nullopt;
}

// The names below are the scene file's spellings (DESIGN §3): the loader and the writer both use them.

const char* to_string(JointType type) {
  switch (type) {
    case JointType::ball: return "ball";
    case JointType::hinge: return "hinge";
    case JointType::prismatic: return "prismatic";
    case JointType::universal: return "universal";
    case JointType::fixed: return "fixed";
    case JointType::cone_twist: return "cone_twist";
    case JointType::distance: return "distance";
    case JointType::slider: return "slider";
    case JointType::cable: return "cable";
  }
  return "unknown";
}

const char* to_string(Integrator integrator) {
  switch (integrator) {
    case Integrator::implicit_euler: return "implicit_euler";
    case Integrator::bdf2: return "bdf2";
  }
  return "unknown";
}

}  // namespace affix
