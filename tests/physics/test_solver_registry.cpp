// The solver registry (solvers/registry.hpp): every name in solver_names() builds a simulator whose
// name() is that name, declares its capabilities, builds the scenes it declares it can simulate and
// refuses, with an InputError naming the JSON path, those it cannot; an unknown name is an InputError
// naming settings.solver.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/registry.hpp"
#include "support/physics.hpp"

namespace affix {
namespace {

constexpr JointType kAllJointTypes[] = {JointType::ball,      JointType::hinge,      JointType::prismatic,
                                        JointType::universal, JointType::fixed,      JointType::cone_twist,
                                        JointType::distance,  JointType::slider,     JointType::cable};

/// One 0.2 m box falling freely from 1 m: nothing to touch, no joint.
Scene trivial_scene() {
  return test::scene_with({test::box_body("box", Vec3::Constant(0.2), Vec3(0, 0, 1))}, 0.01, std::nullopt);
}

/// A scene file with a box "a" hanging from the world by a joint (`joint`: its type-specific fields)
/// and a free box "b" beside it (so that a fixed joint leaves something to solve for: see
/// JointTypes.DISABLED_FixedToTheWorldHoldsALoneBodyStill).
Scene scene_from_json(const nlohmann::json& settings, const nlohmann::json& joint, bool ground = false) {
  nlohmann::json doc = {{"version", 1},
                        {"settings", settings},
                        {"bodies",
                         {{{"name", "a"}, {"shape", {{"box", {0.2, 0.2, 0.2}}}}, {"position", {0, 0, 1}}},
                          {{"name", "b"}, {"shape", {{"box", {0.2, 0.2, 0.2}}}}, {"position", {1, 0, 1}}}}}};
  if (ground) doc["ground"] = nlohmann::json::object();
  if (!joint.is_null()) {
    nlohmann::json j = joint;
    j["name"] = "j";
    j["body1"] = "a";
    j["body2"] = "world";
    doc["joints"] = {j};
  }
  return parse_scene(doc, "registry.json");
}

/// The type-specific fields of a valid joint of each type, anchored at the top of the box.
nlohmann::json joint_fields(JointType type) {
  const nlohmann::json anchor = {0, 0, 1.1};
  switch (type) {
    case JointType::ball: return {{"type", "ball"}, {"anchor", anchor}};
    case JointType::hinge: return {{"type", "hinge"}, {"anchor", anchor}, {"axis", {1, 0, 0}}};
    case JointType::prismatic: return {{"type", "prismatic"}, {"anchor", anchor}, {"axis", {0, 0, 1}}};
    case JointType::universal: return {{"type", "universal"}, {"anchor", anchor}, {"axes", {{1, 0, 0}, {0, 1, 0}}}};
    case JointType::fixed: return {{"type", "fixed"}, {"anchor", anchor}};
    case JointType::cone_twist:
      return {{"type", "cone_twist"}, {"anchor", anchor}, {"frame", {{0, 0, -1}, {1, 0, 0}, {0, -1, 0}}}};
    case JointType::distance: return {{"type", "distance"}, {"anchor1", anchor}, {"anchor2", {0, 0, 1.3}}};
    case JointType::slider: return {{"type", "slider"}, {"point", anchor}, {"normal", {0, 0, 1}}};
    case JointType::cable: return {{"type", "cable"}, {"anchor", anchor}, {"axis", {0, 0, -1}}};
  }
  return nullptr;
}

/// Expects make_simulator to build the scene and take a step when `supported`, and otherwise to
/// refuse it with an InputError whose message names `path`.
void expect_built_or_refused(const Scene& scene, const std::string& solver, bool supported, const std::string& path) {
  if (supported) {
    std::unique_ptr<Simulator> sim;
    ASSERT_NO_THROW(sim = test::simulate(scene, solver)) << path;
    EXPECT_NO_THROW(sim->step()) << path;
    return;
  }
  try {
    test::simulate(scene, solver);
    ADD_FAILURE() << solver << " accepted a scene it declares it cannot simulate (" << path << ")";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

class SolverRegistry : public test::SolverTest {};

TEST_P(SolverRegistry, BuildsASimulatorThatGoesByItsName) {
  const auto sim = test::simulate(trivial_scene(), GetParam());
  ASSERT_NE(sim, nullptr);
  EXPECT_EQ(std::string(sim->name()), GetParam());
  EXPECT_EQ(sim->step_count(), 0);
  EXPECT_EQ(sim->time(), 0.0);
  ASSERT_EQ(sim->poses().size(), 1u);
  EXPECT_EQ(sim->poses()[0].p, Vec3(0, 0, 1));
  const StepStats stats = sim->step();
  EXPECT_EQ(stats.step, 1);
  EXPECT_EQ(sim->step_count(), 1);
  EXPECT_DOUBLE_EQ(sim->time(), 0.01);
  EXPECT_EQ(sim->poses().size(), 1u);
  EXPECT_EQ(sim->velocities().size(), 1u);
  EXPECT_LT(sim->velocities()[0].linear.z(), 0.0) << "the box falls";
  EXPECT_TRUE(sim->joint_records().empty());
  EXPECT_TRUE(sim->contact_records().empty()) << "nothing to touch";
}

TEST_P(SolverRegistry, DeclaresItsCapabilities) {
  SolverCapabilities caps;
  ASSERT_NO_THROW(caps = solver_capabilities(GetParam()));
  const std::set<JointType> joints(caps.joints.begin(), caps.joints.end());
  EXPECT_EQ(joints.size(), caps.joints.size()) << "a joint type listed twice";
  for (JointType t : kAllJointTypes) EXPECT_EQ(caps.supports(t), joints.count(t) == 1) << to_string(t);
  EXPECT_TRUE(!caps.friction || caps.ground_contact || caps.body_contact) << "friction without contact";
  EXPECT_TRUE(!caps.intersection_free || caps.ground_contact || caps.body_contact)
      << "intersection-free without contact";
  std::printf("%s: ground %d, body %d, friction %d, intersection-free %d, prescribed %d, limits %d, bdf2 %d, "
              "damping %d, %zu joint types\n", GetParam().c_str(), caps.ground_contact, caps.body_contact,
              caps.friction, caps.intersection_free, caps.prescribed_motion, caps.joint_limits, caps.bdf2,
              caps.damping, caps.joints.size());
}

TEST_P(SolverRegistry, BuildsEveryJointTypeItDeclaresAndRefusesTheOthers) {
  const SolverCapabilities caps = solver_capabilities(GetParam());
  for (JointType t : kAllJointTypes) {
    SCOPED_TRACE(to_string(t));
    expect_built_or_refused(scene_from_json(nlohmann::json::object(), joint_fields(t)), GetParam(), caps.supports(t),
                            caps.supports(t) ? "joints[0]" : "joints[0].type");
  }
}

TEST_P(SolverRegistry, BuildsTheSettingsAndContactsItDeclaresAndRefusesTheOthers) {
  const SolverCapabilities caps = solver_capabilities(GetParam());
  expect_built_or_refused(scene_from_json({{"integrator", "bdf2"}}, nullptr), GetParam(), caps.bdf2,
                          "settings.integrator");
  expect_built_or_refused(scene_from_json(nlohmann::json::object(), nullptr, true), GetParam(), caps.ground_contact,
                          "ground");
  nlohmann::json hinge = joint_fields(JointType::hinge);
  hinge["limits_deg"] = {-30, 30};
  if (caps.supports(JointType::hinge))
    expect_built_or_refused(scene_from_json(nlohmann::json::object(), hinge), GetParam(), caps.joint_limits,
                            "joints[0].limits_deg");
  nlohmann::json motor = joint_fields(JointType::hinge), servo = joint_fields(JointType::prismatic);
  motor["motor"] = {{"velocity", 1.0}};
  servo["servo"] = {{"stiffness", 100.0}};
  if (caps.supports(JointType::hinge))
    expect_built_or_refused(scene_from_json(nlohmann::json::object(), motor), GetParam(), caps.joint_drives,
                            "joints[0].motor");
  if (caps.supports(JointType::prismatic))
    expect_built_or_refused(scene_from_json(nlohmann::json::object(), servo), GetParam(), caps.joint_drives,
                            "joints[0].servo");
}

INSTANTIATE_TEST_SUITE_P(AllSolvers, SolverRegistry, ::testing::ValuesIn(solver_names()), test::SolverName());

TEST(SolverRegistryNames, AreTheOnesTheSceneAccepts) {
  const std::vector<std::string> names = solver_names();
  ASSERT_FALSE(names.empty());
  EXPECT_NE(std::find(names.begin(), names.end(), "ipc"), names.end());
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "a name listed twice";
  for (const std::string& name : names) {
    EXPECT_NO_THROW(scene_from_json({{"solver", name}}, nullptr)) << name << " is not accepted by settings.solver";
  }
}

TEST(SolverRegistryNames, TestsSayWhichNeedASolverLacks) {
  // What AFFIX_REQUIRE skips a physics test with (support/physics.hpp).
  using test::Feature;
  SolverCapabilities caps;
  caps.ground_contact = true;
  caps.joints = {JointType::ball};
  EXPECT_EQ(test::missing("x", caps, {Feature::ground_contact, JointType::ball}), "");
  EXPECT_EQ(test::missing("x", caps, {Feature::ground_contact, Feature::bdf2, Feature::friction}),
            "x does not support the bdf2 integrator");
  EXPECT_EQ(test::missing("x", caps, {JointType::ball, JointType::cone_twist}), "x does not support cone_twist joints");
  for (const std::string& name : solver_names()) EXPECT_NO_THROW(test::missing(name, {Feature::damping}));
}

TEST(SolverRegistryNames, AnUnknownSolverIsAnInputErrorNamingSettingsSolver) {
  Scene scene = trivial_scene();
  scene.settings.solver = "no_such_solver";
  try {
    make_simulator(scene);
    ADD_FAILURE() << "an unknown solver was built";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("settings.solver"), std::string::npos) << message;
    EXPECT_NE(message.find("no_such_solver"), std::string::npos) << message;
  }
  EXPECT_THROW(solver_capabilities("no_such_solver"), std::invalid_argument);
}

// Every integer field of the solvers' blocks (the README's settings tables: type integer) written as an
// integral float comes back as an integer (Python's to_dict echoed `pgs_iterations: 3.0`, issue 15); a
// number field keeps its float, and each listed field is an integer to its reader (2.5 refused).
TEST(SolverRegistrySettings, IntegerFieldsWrittenAsIntegralFloatsBecomeIntegers) {
  const std::pair<const char*, const char*> integer_fields[] = {
      {"ipc", "max_iterations"},   {"ipc", "friction_iterations"},       {"mabd", "iterations"},
      {"mabd", "gauss_seidel_iterations"}, {"impulse", "max_iterations"}, {"impulse", "split_parts"},
      {"compliant", "dense_rows"}, {"compliant", "projection_iterations"}, {"compliant", "pgs_iterations"}};
  for (const auto& [solver, field] : integer_fields) {
    Settings settings;
    settings.solver_settings[solver] = {{field, 3.0}};
    check_solver_settings(settings, "s.json");
    canonical_solver_settings(settings);
    const nlohmann::json& value = settings.solver_settings[solver][field];
    EXPECT_TRUE(value.is_number_integer()) << solver << "." << field << ": " << value.dump();
    EXPECT_EQ(value, 3) << solver << "." << field;
    settings.solver_settings[solver] = {{field, 2.5}};
    try {
      check_solver_settings(settings, "s.json");
      ADD_FAILURE() << solver << "." << field << " took 2.5";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("expected an integer"), std::string::npos) << e.what();
    }
  }
  Settings settings;
  settings.solver_settings["compliant"] = {{"alpha", 1.0}, {"pgs_iterations", 3e0}, {"compliance", 1e-12}};
  canonical_solver_settings(settings);
  EXPECT_TRUE(settings.solver_settings["compliant"]["alpha"].is_number_float());
  EXPECT_TRUE(settings.solver_settings["compliant"]["pgs_iterations"].is_number_integer());
}

}  // namespace
}  // namespace affix
