// `settings.impulse`, read and validated by the impulse solver (impulse_settings.hpp) from the raw block
// the scene loader keeps: every field and its default, bad values refused with the one-line message
// naming the file and the JSON path (DESIGN §4), also when the solver is built; and what the solver
// cannot run (BDF-2) refused the same way.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "affix/error.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/impulse/impulse_settings.hpp"
#include "affix/solvers/registry.hpp"

namespace affix {
namespace {

using nlohmann::json;

const std::filesystem::path kFile = "dir/scene.json";

Scene scene_with_impulse(const json& impulse) {
  json file = json::parse(R"({ "settings": { "dt": 0.01, "duration": 0.1, "solver": "impulse" },
      "bodies": [ { "name": "box", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [0, 0, 0.11] } ],
      "joints": [ { "name": "j", "type": "hinge", "body1": "box", "body2": "world", "anchor": [0, 0, 0.3],
                    "axis": [1, 0, 0] } ] })");
  file["settings"]["impulse"] = impulse;
  return parse_scene(file, kFile);
}

ImpulseSettings read(const json& impulse) {
  const Scene scene = scene_with_impulse(impulse);
  return read_impulse_settings(scene.settings, scene.file);
}

/// The message of the InputError that `f` throws (a failure if it throws nothing).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return {};
}

TEST(ImpulseSettings, AnAbsentBlockGivesTheDefaults) {
  EXPECT_EQ(read(json::object()), ImpulseSettings{});
  const ImpulseSettings s;
  EXPECT_EQ(s.position_tolerance, 1e-6);
  EXPECT_EQ(s.max_iterations, 50);
  EXPECT_EQ(s.tikhonov, 1e-10);  // Tomcin 2014 §4
  EXPECT_EQ(s.integration, ImpulseIntegration::symplectic_euler);
  EXPECT_EQ(s.restitution, 0.0);
  EXPECT_EQ(s.split_parts, 0);
}

TEST(ImpulseSettings, EveryFieldIsRead) {
  const ImpulseSettings s = read(json::parse(R"({ "position_tolerance": 1e-9, "max_iterations": 500,
                                                  "tikhonov": 1e-12, "integration": "velocity_verlet",
                                                  "restitution": 0.5, "split_parts": 3 })"));
  EXPECT_EQ(s.position_tolerance, 1e-9);
  EXPECT_EQ(s.max_iterations, 500);
  EXPECT_EQ(s.tikhonov, 1e-12);
  EXPECT_EQ(s.integration, ImpulseIntegration::velocity_verlet);
  EXPECT_EQ(s.restitution, 0.5);
  EXPECT_EQ(s.split_parts, 3);
}

TEST(ImpulseSettings, BadValuesNameTheFileAndThePath) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({ "position_tolerance": 0 })", "settings.impulse.position_tolerance"},
      {R"({ "max_iterations": 0 })", "settings.impulse.max_iterations"},
      {R"({ "max_iterations": 2.5 })", "settings.impulse.max_iterations"},
      {R"({ "tikhonov": 1 })", "settings.impulse.tikhonov"},
      {R"({ "tikhonov": -1e-10 })", "settings.impulse.tikhonov"},
      {R"({ "integration": "rk4" })", "settings.impulse.integration"},
      {R"({ "restitution": 1.5 })", "settings.impulse.restitution"},
      {R"({ "restitution": -0.1 })", "settings.impulse.restitution"},
      {R"({ "split_parts": -1 })", "settings.impulse.split_parts"},
      {R"({ "split_parts": 1.5 })", "settings.impulse.split_parts"},
      {R"({ "tolerance": 1e-6 })", "settings.impulse.tolerance"},
  };
  for (const auto& [block, path] : cases) {
    const std::string message = error_of([&] { read(json::parse(block)); });
    EXPECT_NE(message.find("dir/scene.json"), std::string::npos) << message;
    EXPECT_NE(message.find(path), std::string::npos) << message;
    // The same when the solver is built from the model.
    const std::string built = error_of([&] { make_simulator(scene_with_impulse(json::parse(block))); });
    EXPECT_NE(built.find(path), std::string::npos) << built;
  }
}

TEST(ImpulseSettings, Bdf2IsRefusedNamingItsPath) {
  Scene ground = scene_with_impulse(json::object());
  ground.ground = Ground{};
  EXPECT_NO_THROW(make_simulator(ground));  // contact is supported (impulse_contacts.cpp)
  Scene bdf2 = scene_with_impulse(json::object());
  bdf2.settings.integrator = Integrator::bdf2;
  const std::string no_bdf2 = error_of([&] { make_simulator(bdf2); });
  EXPECT_NE(no_bdf2.find("dir/scene.json: settings.integrator:"), std::string::npos) << no_bdf2;
}

}  // namespace
}  // namespace affix
