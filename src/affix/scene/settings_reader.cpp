#include "affix/scene/settings_reader.hpp"

#include <string>
#include <vector>

#include "affix/math/number_text.hpp"
#include "affix/scene/time_steps.hpp"

namespace affix {

namespace {

std::string solver_list() {
  std::string out;
  for (std::string_view name : kSolverNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

std::string read_solver(const JsonReader& value) {
  const std::string name = value.string();
  for (std::string_view known : kSolverNames) {
    if (name == known) return name;
  }
  value.expected("one of the solvers " + solver_list());
}

Integrator read_integrator(const JsonReader& value) {
  const std::string name = value.string();
  for (Integrator i : {Integrator::implicit_euler, Integrator::bdf2}) {
    if (name == to_string(i)) return i;
  }
  value.expected("\"implicit_euler\" or \"bdf2\"");
}

/// A frame is written at most once per step, so more frames per second than steps makes no sense.
double read_output_fps(const JsonReader& value, const Settings& settings) {
  const double fps = value.positive();
  constexpr double kRelativeTolerance = 1e-9;  // 1/dt is rarely exact in binary
  if (fps * settings.dt > 1.0 + kRelativeTolerance) {
    value.expected("a frame rate no greater than 1/dt = " + number_text(1.0 / settings.dt));
  }
  if (auto breach = frame_limit_breach(settings.duration, fps)) value.fail(*breach);
  return fps;
}

}  // namespace

Settings read_settings(const JsonReader& value) {
  std::vector<std::string_view> allowed{"dt", "duration", "gravity", "solver", "integrator", "output_fps"};
  allowed.insert(allowed.end(), std::begin(kSolverNames), std::end(kSolverNames));
  const ObjectReader obj(value, allowed);
  Settings settings;
  if (auto v = obj.find("dt")) settings.dt = v->positive();
  if (auto v = obj.find("duration")) settings.duration = v->positive();
  if (auto breach = step_limit_breach(settings.duration, settings.dt)) {
    // Both fields make the count; the duration is the one named when given, as the usual culprit.
    (obj.has("duration") ? obj.at("duration") : obj.at("dt")).fail(*breach);
  }
  if (auto v = obj.find("gravity")) settings.gravity = v->vec3();
  if (auto v = obj.find("solver")) settings.solver = read_solver(*v);
  if (auto v = obj.find("integrator")) settings.integrator = read_integrator(*v);
  if (auto v = obj.find("output_fps")) settings.output_fps = read_output_fps(*v, settings);
  // Each solver's block is its own to read (solvers/<name>/): here it need only be an object.
  for (std::string_view name : kSolverNames) {
    if (auto v = obj.find(name)) {
      if (!v->json().is_object()) v->expected("an object");
      settings.solver_settings.emplace(name, v->json());
    }
  }
  return settings;
}

}  // namespace affix
