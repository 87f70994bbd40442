#pragma once
// One engine in one mode, as bench/peers drives it: built from an affix scene and its compiled model,
// stepped, and read back as poses. affix's own solvers come through the Simulator interface
// (affix_engine.cpp); MuJoCo, Bullet and ODE translate the model (their own files, and
// bench/peers/README.md for every translation choice).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "affix/model/body_state.hpp"
#include "affix/model/model.hpp"
#include "affix/scene/scene.hpp"

namespace affix::peers {

/// What an engine is built from: the scene (shapes) and its compiled model (masses, inertias, joint
/// frames, exclusions, the initial state), bodies in the same order.
struct BenchInput {
  const Scene& scene;
  const Model& model;
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// Advances one step of the model's h.
  virtual void step() = 0;
  /// Every model body's pose (origin and rotation, model order) into `out`, sized by the caller.
  virtual void poses(std::vector<BodyPose>& out) const = 0;
  /// What the engine warned about during the run (once per kind), for the row's note; "" if nothing.
  virtual std::string warnings() const { return ""; }
};

struct EngineSpec {
  std::string engine;  ///< "affix ipc", "MuJoCo 2.2.2", "Bullet 3.24", "ODE 0.16.2"
  std::string mode;    ///< "Newton", "btDiscreteDynamicsWorld", "dWorldStep", …
  bool affix = false;  ///< one of affix's solvers (the ratio's numerator)
  /// Builds the engine; throws InputError (what the scene asks that it cannot do, naming the path).
  std::function<std::unique_ptr<Engine>(const BenchInput&)> make;
};

/// Every affix solver (affix::solver_names(): a new solver joins by its registry entry alone).
std::vector<EngineSpec> affix_engines();

/// The peers this binary was built with: MuJoCo (Newton), Bullet (btDiscreteDynamicsWorld with
/// btSequentialImpulseConstraintSolver in maximal coordinates, and btMultiBody trees), ODE (dWorldStep
/// and dWorldQuickStep).
std::vector<EngineSpec> peer_engines();

}  // namespace affix::peers
