#include "affix/solvers/impulse/impulse_settings.hpp"

#include "affix/scene/json_reader.hpp"

namespace affix {

const char* to_string(ImpulseIntegration integration) {
  return integration == ImpulseIntegration::symplectic_euler ? "symplectic_euler" : "velocity_verlet";
}

ImpulseSettings read_impulse_settings(const Settings& settings, const std::filesystem::path& file) {
  const auto block = settings.solver_settings.find("impulse");
  if (block == settings.solver_settings.end()) return {};
  const JsonReader value(block->second, "settings.impulse", file);
  const ObjectReader obj(value, {"position_tolerance", "max_iterations", "tikhonov", "integration", "restitution", "split_parts"});
  ImpulseSettings s;
  if (auto v = obj.find("position_tolerance")) s.position_tolerance = v->positive();
  if (auto v = obj.find("max_iterations")) s.max_iterations = v->integer_at_least(1);
  if (auto v = obj.find("tikhonov")) {
    s.tikhonov = v->positive();
    if (!(s.tikhonov < 1.0)) v->expected("a number in (0, 1)");
  }
  if (auto v = obj.find("integration")) {
    const std::string name = v->string();
    if (name == "symplectic_euler") s.integration = ImpulseIntegration::symplectic_euler;
    else if (name == "velocity_verlet") s.integration = ImpulseIntegration::velocity_verlet;
    else v->expected("one of \"symplectic_euler\", \"velocity_verlet\"");
  }
  if (auto v = obj.find("restitution")) {
    s.restitution = v->number();
    if (!(s.restitution >= 0.0 && s.restitution <= 1.0)) v->expected("a number in [0, 1]");
  }
  if (auto v = obj.find("split_parts")) s.split_parts = v->integer_at_least(0);
  return s;
}

}  // namespace affix
