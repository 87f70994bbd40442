#pragma once
// The solver back-ends by name: the one place that knows them all (a new back-end adds its name to
// kSolverNames, its capabilities, its settings reader and its constructor here).
#include <memory>
#include <string>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/model/simulator.hpp"

namespace affix {

/// Names accepted by settings.solver and --solver.
std::vector<std::string> solver_names();

/// What the named solver can simulate; throws std::invalid_argument for an unknown name.
SolverCapabilities solver_capabilities(const std::string& name);

/// The start conditions of the solver the model's settings.solver names, beyond the model's own
/// (compile's) checks, without building the solver: what `affix validate` adds. Every
/// `settings.<solver>` block the file has is read by its solver, the chosen one or not, so a mistake in
/// any is reported. Throws InputError.
void check_model(const Model& model);

/// Every `settings.<solver>` block of `settings`, each read by its solver (the chosen one or not), as
/// check_model and make_simulator read them; `file` names the source in the message. Throws InputError.
void check_solver_settings(const Settings& settings, const std::filesystem::path& file);

/// Every integer field of the `settings.<solver>` blocks written as an integral float (3.0, 3e0, which the
/// readers accept as 3) made an integer, so that a scene written back (Python's `to_dict`, `save`) gives
/// 3 as it gives `resolution`. Call after check_solver_settings.
void canonical_solver_settings(Settings& settings);

/// Builds the solver the model's settings.solver names, from the compiled model (which it keeps).
/// Throws InputError when a `settings.<solver>` block is not valid (any of them, as check_model), when
/// the scene uses something the solver cannot do (naming the JSON path), or when it fails one of the
/// solver's own start conditions.
std::unique_ptr<Simulator> make_simulator(std::shared_ptr<const Model> model);

/// compile(scene), then the above.
std::unique_ptr<Simulator> make_simulator(const Scene& scene);

}  // namespace affix
