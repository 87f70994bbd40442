#include "affix/solvers/registry.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

#include "affix/error.hpp"
#include "affix/scene/json_reader.hpp"
#include "affix/solvers/impulse/impulse_settings.hpp"
#include "affix/solvers/impulse/impulse_simulator.hpp"
#include "affix/solvers/compliant/compliant_settings.hpp"
#include "affix/solvers/compliant/compliant_simulator.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "affix/solvers/ipc/ipc_simulator.hpp"
#include "affix/solvers/mabd/mabd_settings.hpp"
#include "affix/solvers/mabd/mabd_simulator.hpp"

namespace affix {

std::vector<std::string> solver_names() {
  return {std::begin(kSolverNames), std::end(kSolverNames)};  // the scene layer's list is the one list
}

SolverCapabilities solver_capabilities(const std::string& name) {
  if (name == "ipc") return IpcSimulator::capabilities();
  if (name == "mabd") return MabdSimulator::capabilities();
  if (name == "impulse") return ImpulseSimulator::capabilities();
  if (name == "compliant") return CompliantSimulator::capabilities();
  throw std::invalid_argument("no solver named '" + name + "'");
}

namespace {

[[noreturn]] void unknown_solver(const Model& model) {
  std::string names;
  for (std::string_view name : kSolverNames) names += (names.empty() ? "" : ", ") + std::string(name);
  throw InputError(model.file.string() + ": settings.solver: expected one of: " + names + ", got '" +
                   model.settings.solver + "'");
}

/// Each solver's reader of its own `settings.<name>` block, which throws InputError for a bad one: a
/// new back-end adds one line.
struct SettingsReader {
  std::string_view solver;
  void (*read)(const Settings& settings, const std::filesystem::path& file);
};
constexpr SettingsReader kSettingsReaders[] = {
    {"ipc", [](const Settings& s, const std::filesystem::path& f) { read_ipc_settings(s, f); }},
    {"mabd", [](const Settings& s, const std::filesystem::path& f) { read_mabd_settings(s, f); }},
    {"impulse", [](const Settings& s, const std::filesystem::path& f) { read_impulse_settings(s, f); }},
    {"compliant", [](const Settings& s, const std::filesystem::path& f) { read_compliant_settings(s, f); }},
};
// A solver without settings still needs a line: one that refuses every field of its block.
static_assert(std::size(kSettingsReaders) == std::size(kSolverNames), "every solver reads its settings");

/// The integer fields of each solver's block (those its reader takes with integer_at_least), which
/// canonical_solver_settings writes back as integers. `RegistrySettings.IntegerFieldsAreTheReadersIntegers`
/// checks each against its reader (2.5 refused as "expected an integer").
struct IntegerFields {
  std::string_view solver;
  std::array<std::string_view, 3> fields;  // "" past the last
};
constexpr IntegerFields kIntegerFields[] = {
    {"ipc", {"max_iterations", "friction_iterations", ""}},
    {"mabd", {"iterations", "gauss_seidel_iterations", ""}},
    {"impulse", {"max_iterations", "split_parts", ""}},
    {"compliant", {"dense_rows", "projection_iterations", "pgs_iterations"}},
};


/// A joint type the chosen solver does not declare (SolverCapabilities::joints) is refused here, once
/// for every back-end, naming the joint's JSON path: the solvers that predate a type (the `cable`
/// joint, which only `compliant` keeps) then never see it. So are motors and servos
/// (SolverCapabilities::joint_drives), naming `joints[i].motor` or `joints[i].servo`.
void refuse_unsupported_joints(const Model& model) {
  const auto known = std::find(std::begin(kSolverNames), std::end(kSolverNames), model.settings.solver);
  if (known == std::end(kSolverNames)) return;  // unknown_solver() reports it
  const SolverCapabilities caps = solver_capabilities(model.settings.solver);
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const JointDef& def = model.joints[k].def;
    // The path is written only for a message: for every joint it was two allocations (0.1 s at 10⁶).
    const auto path = [&] { return model.file.string() + ": joints[" + std::to_string(k) + "]"; };
    if (!caps.supports(def.type))
      throw InputError(path() + ".type: the " + model.settings.solver + " solver has no " + to_string(def.type) + " joint");
    if (!caps.joint_drives && (def.motor || def.servo))
      throw InputError(path() + (def.motor ? ".motor" : ".servo") + ": the " + model.settings.solver +
                       " solver has no joint motors or servos (use the compliant solver, or remove it)");
  }
}

}  // namespace

/// Every settings block the file has, each by its solver, whichever solver runs: a mistake in one is
/// reported before a run switches to that solver (--solver), not only then.
void check_solver_settings(const Settings& settings, const std::filesystem::path& file) {
  for (const auto& entry : settings.solver_settings) {
    const auto reader = std::find_if(std::begin(kSettingsReaders), std::end(kSettingsReaders),
                                     [&](const SettingsReader& r) { return r.solver == entry.first; });
    // The scene reader keeps only the blocks of kSolverNames, and each has a reader (above).
    if (reader != std::end(kSettingsReaders)) reader->read(settings, file);
  }
}

void canonical_solver_settings(Settings& settings) {
  for (auto& [solver, block] : settings.solver_settings) {
    if (!block.is_object()) continue;
    for (const IntegerFields& entry : kIntegerFields) {
      if (entry.solver != solver) continue;
      for (std::string_view field : entry.fields) {
        const auto value = field.empty() ? block.end() : block.find(field);
        // An integral float (3.0, 3e0; what the reader accepts: JsonReader::is_integral) becomes 3.
        if (value != block.end() && value->is_number_float() &&
            JsonReader(*value, std::string(field), {}).is_integral())
          *value = JsonReader(*value, std::string(field), {}).int64();
      }
    }
  }
}

void check_model(const Model& model) {
  check_solver_settings(model.settings, model.file);
  refuse_unsupported_joints(model);
  if (model.settings.solver == "ipc") return IpcSimulator::check_model(model);
  if (model.settings.solver == "mabd") return MabdSimulator::check_model(model);
  if (model.settings.solver == "impulse") return ImpulseSimulator::check_model(model);
  if (model.settings.solver == "compliant") return CompliantSimulator::check_model(model);
  unknown_solver(model);
}

std::unique_ptr<Simulator> make_simulator(std::shared_ptr<const Model> model) {
  check_solver_settings(model->settings, model->file);
  refuse_unsupported_joints(*model);
  if (model->settings.solver == "ipc") return std::make_unique<IpcSimulator>(std::move(model));
  if (model->settings.solver == "mabd") return std::make_unique<MabdSimulator>(std::move(model));
  if (model->settings.solver == "impulse") return std::make_unique<ImpulseSimulator>(std::move(model));
  if (model->settings.solver == "compliant") return std::make_unique<CompliantSimulator>(std::move(model));
  unknown_solver(*model);
}

std::unique_ptr<Simulator> make_simulator(const Scene& scene) {
  return make_simulator(std::make_shared<const Model>(compile(scene)));
}

}  // namespace affix
