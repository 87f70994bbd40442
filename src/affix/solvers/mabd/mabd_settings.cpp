#include "affix/solvers/mabd/mabd_settings.hpp"

#include <array>

#include "affix/scene/json_reader.hpp"

namespace affix {
namespace {

constexpr std::array kRotations = {RotationExtraction::polar, RotationExtraction::normalize};
constexpr std::array kDualSolvers = {DualSolverKind::automatic, DualSolverKind::direct, DualSolverKind::chain,
                                     DualSolverKind::tree, DualSolverKind::loop, DualSolverKind::gauss_seidel};

/// One of `choices` by its name.
template <class Enum, std::size_t N>
Enum read_choice(const JsonReader& value, const std::array<Enum, N>& choices, const char* (*name_of)(Enum)) {
  const std::string name = value.string();
  std::string names;
  for (Enum e : choices) {
    if (name == name_of(e)) return e;
    names += (names.empty() ? "\"" : ", \"") + std::string(name_of(e)) + "\"";
  }
  value.expected("one of " + names);
}

MabdSettings read_mabd(const JsonReader& value) {
  const ObjectReader obj(value,
                         {"youngs_modulus", "poisson_ratio", "iterations", "tolerance", "strain_tolerance",
                          "max_iterations", "rotation", "dual_solver",
                          "gauss_seidel_tolerance", "gauss_seidel_iterations",
                          "contact_stiffness", "contact_thickness", "body_contact"});
  MabdSettings s;
  if (auto v = obj.find("youngs_modulus")) s.youngs_modulus = v->positive();
  if (auto v = obj.find("poisson_ratio")) {
    s.poisson_ratio = v->non_negative();
    if (!(s.poisson_ratio < 0.5)) v->expected("a number in [0, 0.5)");
  }
  if (auto v = obj.find("iterations")) s.iterations = v->integer_at_least(1);
  if (auto v = obj.find("tolerance")) s.tolerance = v->positive();
  if (auto v = obj.find("strain_tolerance")) s.strain_tolerance = v->positive();
  if (auto v = obj.find("max_iterations")) s.max_iterations = v->integer_at_least(1);
  if (auto v = obj.find("rotation")) s.rotation = read_choice(*v, kRotations, to_string);
  if (auto v = obj.find("dual_solver")) s.dual_solver = read_choice(*v, kDualSolvers, dual_solver_name);
  if (auto v = obj.find("gauss_seidel_tolerance")) s.gauss_seidel_tolerance = v->positive();
  if (auto v = obj.find("gauss_seidel_iterations")) s.gauss_seidel_iterations = v->integer_at_least(1);
  if (auto v = obj.find("contact_stiffness")) s.contact_stiffness = v->positive();
  if (auto v = obj.find("contact_thickness")) s.contact_thickness = v->positive();
  if (auto v = obj.find("body_contact")) s.body_contact = v->boolean();
  return s;
}

}  // namespace

const char* to_string(RotationExtraction kind) {
  return kind == RotationExtraction::polar ? "polar" : "normalize";
}

MabdSettings read_mabd_settings(const Settings& settings, const std::filesystem::path& file) {
  const auto block = settings.solver_settings.find("mabd");
  if (block == settings.solver_settings.end()) return {};
  return read_mabd(JsonReader(block->second, "settings.mabd", file));
}

}  // namespace affix
