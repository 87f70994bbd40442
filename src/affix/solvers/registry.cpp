#include "affix/solvers/registry.hpp"

#include <stdexcept>

#include "affix/error.hpp"
#include "affix/solvers/ipc/ipc_simulator.hpp"

namespace affix {

std::vector<std::string> solver_names() {
  return {std::begin(kSolverNames), std::end(kSolverNames)};  // the scene layer's list is the one list
}

SolverCapabilities solver_capabilities(const std::string& name) {
  if (name == "ipc") return IpcSimulator::capabilities();
  throw std::invalid_argument("no solver named '" + name + "'");
}

namespace {

[[noreturn]] void unknown_solver(const Model& model) {
  throw InputError(model.file.string() + ": settings.solver: expected one of: ipc, got '" +
                   model.settings.solver + "'");
}

}  // namespace

void check_model(const Model& model) {
  if (model.settings.solver == "ipc") return IpcSimulator::check_model(model);
  unknown_solver(model);
}

std::unique_ptr<Simulator> make_simulator(std::shared_ptr<const Model> model) {
  if (model->settings.solver == "ipc") return std::make_unique<IpcSimulator>(std::move(model));
  unknown_solver(*model);
}

std::unique_ptr<Simulator> make_simulator(const Scene& scene) {
  return make_simulator(std::make_shared<const Model>(compile(scene)));
}

}  // namespace affix
