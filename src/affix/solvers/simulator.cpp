#include "affix/solvers/simulator.hpp"

#include "affix/error.hpp"
#include "affix/solvers/ipc/ipc_simulator.hpp"

namespace affix {

std::vector<std::string> solver_names() {
  return {std::begin(kSolverNames), std::end(kSolverNames)};  // the scene layer's list is the one list
}

std::unique_ptr<Simulator> make_simulator(const Scene& scene) {
  if (scene.settings.solver == "ipc") return std::make_unique<IpcSimulator>(scene);
  throw InputError(scene.file.string() + ": settings.solver: expected one of: ipc, got '" +
                   scene.settings.solver + "'");
}

}  // namespace affix
