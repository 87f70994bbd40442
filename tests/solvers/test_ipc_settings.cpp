// `settings.ipc`, read and validated by the ipc solver (ipc_settings.hpp) from the raw block the scene
// loader keeps: every field and its default, and bad values refused with the one-line message the
// loader gives its own fields (DESIGN §4) — by the reader, by check_model (`affix validate`) and when
// the solver is built.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "affix/error.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "affix/solvers/registry.hpp"

namespace affix {
namespace {

using nlohmann::json;

const std::filesystem::path kFile = "dir/scene.json";

/// A box resting 1 cm above the ground (valid for the model and the solver), with `ipc` as its
/// settings.ipc block.
Scene scene_with_ipc(const json& ipc) {
  json file = json::parse(R"({ "ground": {}, "settings": { "dt": 0.01, "duration": 0.1 },
      "bodies": [ { "name": "box", "shape": { "box": [0.2, 0.2, 0.2] }, "position": [0, 0, 0.11] } ] })");
  file["settings"]["ipc"] = ipc;
  return parse_scene(file, kFile);
}

IpcSettings read(const json& ipc) {
  const Scene scene = scene_with_ipc(ipc);
  return read_ipc_settings(scene.settings, scene.file);
}

/// The message read_ipc_settings throws for `ipc` (a failure if it throws nothing).
std::string read_error(const json& ipc) {
  try {
    read(ipc);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for settings.ipc " << ipc.dump();
  return {};
}

TEST(IpcSettings, AnAbsentBlockGivesTheDefaults) {
  const Scene scene = parse_scene(json::parse(R"({ "bodies": [ { "name": "a", "shape": { "sphere": 1 } } ] })"),
                                  kFile);
  EXPECT_EQ(read_ipc_settings(scene.settings, scene.file), IpcSettings{});
  EXPECT_EQ(read(json::object()), IpcSettings{});
}

TEST(IpcSettings, EveryFieldIsRead) {
  const IpcSettings s = read(json::parse(R"({ "dhat": 2e-3, "epsv": 5e-4, "kappa": 1e5, "tolerance": 1e-5,
                                              "max_iterations": 40, "friction_iterations": 3 })"));
  EXPECT_EQ(s.dhat, 2e-3);
  EXPECT_EQ(s.epsv, 5e-4);
  EXPECT_EQ(s.kappa, 1e5);
  EXPECT_EQ(s.tolerance, 1e-5);
  EXPECT_EQ(s.max_iterations, 40);
  EXPECT_EQ(s.friction_iterations, 3);
}

TEST(IpcSettings, LinearSolverIsReadAndATreeIsRefusedOnALoop) {
  EXPECT_EQ(read(json::object()).linear_solver, JointSolverKind::automatic);
  for (JointSolverKind kind :
       {JointSolverKind::automatic, JointSolverKind::reduction, JointSolverKind::dense, JointSolverKind::tree})
    EXPECT_EQ(read(json{{"linear_solver", joint_solver_name(kind)}}).linear_solver, kind);
  EXPECT_EQ(read_error(json::parse(R"({ "linear_solver": "cholesky" })")),
            kFile.string() + R"(: settings.ipc.linear_solver: expected one of "automatic", "reduction", "dense", )"
                             R"("tree", got "cholesky")");

  // Three spheres in a ring of ball joints: a loop, which the tree solve cannot take.
  json file = json::parse(R"({ "settings": { "dt": 0.01, "duration": 0.02, "ipc": { "linear_solver": "tree" } },
      "bodies": [ { "name": "a", "shape": { "sphere": 0.1 }, "position": [0, 0, 1] },
                  { "name": "b", "shape": { "sphere": 0.1 }, "position": [1, 0, 1] },
                  { "name": "c", "shape": { "sphere": 0.1 }, "position": [0.5, 1, 1] } ],
      "joints": [ { "name": "ab", "type": "ball", "body1": "a", "body2": "b", "anchor": [0.5, 0, 1] },
                  { "name": "bc", "type": "ball", "body1": "b", "body2": "c", "anchor": [0.75, 0.5, 1] },
                  { "name": "ca", "type": "ball", "body1": "c", "body2": "a", "anchor": [0.25, 0.5, 1] } ] })");
  try {
    make_simulator(parse_scene(file, kFile));
    ADD_FAILURE() << "a forced tree solve accepted a loop";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), kFile.string() + R"(: settings.ipc.linear_solver: "tree" needs the linear )"
                                                      "joints to form chains or trees, but the joints close a loop");
  }
  file["settings"]["ipc"]["linear_solver"] = "automatic";  // the reduction takes it
  EXPECT_NO_THROW(make_simulator(parse_scene(file, kFile)));
}

TEST(IpcSettings, KappaAutoMeansAdaptive) {
  EXPECT_FALSE(read(json::parse(R"({ "kappa": "auto" })")).kappa.has_value());
  EXPECT_EQ(read(json::parse(R"({ "kappa": 250 })")).kappa, 250.0);
}

// Byte for byte the messages the scene loader gave when it read this block itself.
TEST(IpcSettings, BadValuesNameTheFileAndTheJsonPath) {
  const std::string at = kFile.string() + ": settings.ipc.";
  EXPECT_EQ(read_error(json::parse(R"({ "dhat": -1 })")), at + "dhat: expected a positive number, got -1");
  EXPECT_EQ(read_error(json::parse(R"({ "epsv": "fast" })")), at + "epsv: expected a number, got \"fast\"");
  EXPECT_EQ(read_error(json::parse(R"({ "kappa": "big" })")),
            at + "kappa: expected \"auto\" or a positive number, got \"big\"");
  EXPECT_EQ(read_error(json::parse(R"({ "kappa": 0 })")), at + "kappa: expected a positive number, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "tolerance": 0 })")), at + "tolerance: expected a positive number, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "max_iterations": 2.5 })")),
            at + "max_iterations: expected an integer, got 2.5");
  EXPECT_EQ(read_error(json::parse(R"({ "friction_iterations": 0 })")),
            at + "friction_iterations: expected an integer ≥ 1, got 0");
  EXPECT_EQ(read_error(json::parse(R"({ "dhat": 1e-3, "beta": 2 })")),
            at + "beta: unknown field (expected one of: dhat, epsv, kappa, tolerance, max_iterations, "
                 "friction_iterations, linear_solver)");
}

// What `affix validate` runs: the block is checked there, not only once a solver is built.
TEST(IpcSettings, CheckModelAndTheSolverRefuseABadBlock) {
  const auto model = std::make_shared<const Model>(compile(scene_with_ipc(json::parse(R"({ "dhat": 0 })"))));
  const std::string expected = kFile.string() + ": settings.ipc.dhat: expected a positive number, got 0";
  try {
    check_model(*model);
    ADD_FAILURE() << "check_model accepted settings.ipc.dhat = 0";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  try {
    make_simulator(model);
    ADD_FAILURE() << "make_simulator accepted settings.ipc.dhat = 0";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), expected);
  }
  EXPECT_NO_THROW(check_model(compile(scene_with_ipc(json::parse(R"({ "dhat": 1e-3 })")))));
}

// The solver runs on its own reading of the block: a fixed κ is the κ of every step.
TEST(IpcSettings, TheSolverUsesTheBlock) {
  const auto sim = make_simulator(scene_with_ipc(json::parse(R"({ "kappa": 12345 })")));
  EXPECT_EQ(sim->step().barrier_stiffness, 12345.0);
}

}  // namespace
}  // namespace affix
