#include "affix/solvers/ipc/ipc_settings.hpp"

#include "affix/scene/json_reader.hpp"

namespace affix {

namespace {

/// `kappa`: "auto" (adaptive, the same as absent) or a positive stiffness.
std::optional<double> read_kappa(const JsonReader& value) {
  if (value.json().is_string()) {
    if (value.string() != "auto") value.expected("\"auto\" or a positive number");
    return std::nullopt;
  }
  if (!value.json().is_number()) value.expected("\"auto\" or a positive number");
  return value.positive();
}

IpcSettings read_ipc(const JsonReader& value) {
  const ObjectReader obj(value,
                         {"dhat", "epsv", "kappa", "tolerance", "max_iterations", "friction_iterations",
                          "linear_solver"});
  IpcSettings ipc;
  if (auto v = obj.find("dhat")) ipc.dhat = v->positive();
  if (auto v = obj.find("epsv")) ipc.epsv = v->positive();
  if (auto v = obj.find("kappa")) ipc.kappa = read_kappa(*v);
  if (auto v = obj.find("tolerance")) ipc.tolerance = v->positive();
  if (auto v = obj.find("max_iterations")) ipc.max_iterations = v->integer_at_least(1);
  if (auto v = obj.find("friction_iterations")) ipc.friction_iterations = v->integer_at_least(1);
  if (auto v = obj.find("linear_solver")) {
    const auto kind = joint_solver_from_name(v->string());
    if (!kind) v->expected(R"(one of "automatic", "reduction", "dense", "tree")");
    ipc.linear_solver = *kind;
  }
  return ipc;
}

}  // namespace

IpcSettings read_ipc_settings(const Settings& settings, const std::filesystem::path& file) {
  const auto block = settings.solver_settings.find("ipc");
  if (block == settings.solver_settings.end()) return {};
  // Read at its place in the file, so that messages are the ones the scene loader gives its own fields.
  return read_ipc(JsonReader(block->second, "settings.ipc", file));
}

}  // namespace affix
