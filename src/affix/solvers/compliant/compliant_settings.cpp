#include "affix/solvers/compliant/compliant_settings.hpp"

#include <array>
#include <string>

#include "affix/scene/json_reader.hpp"

namespace affix {
namespace {

constexpr std::array kStabilizations = {Stabilization::none, Stabilization::geometric_stiffness,
                                        Stabilization::inertial_damping, Stabilization::constraint_damping,
                                        Stabilization::automatic};
constexpr std::array kInverses = {AugmentedInverse::low_rank, AugmentedInverse::full_rank};

template <class Enum, std::size_t N>
Enum read_choice(const JsonReader& value, const std::array<Enum, N>& choices) {
  const std::string name = value.string();
  std::string names;
  for (Enum e : choices) {
    if (name == to_string(e)) return e;
    names += (names.empty() ? "\"" : ", \"") + std::string(to_string(e)) + "\"";
  }
  value.expected("one of " + names);
}

CompliantSettings read_compliant(const JsonReader& value) {
  const ObjectReader obj(value, {"stabilization", "inverse", "alpha", "translational_damping", "compliance",
                                 "dense_rows", "projection_iterations", "pgs_iterations", "pgs_tolerance",
                                 "restitution", "slack_cables", "curvature", "anchored_damping"});
  CompliantSettings s;
  if (auto v = obj.find("stabilization")) s.stabilization = read_choice(*v, kStabilizations);
  if (auto v = obj.find("inverse")) s.inverse = read_choice(*v, kInverses);
  if (auto v = obj.find("alpha")) s.alpha = v->positive();
  if (auto v = obj.find("translational_damping")) s.translational_damping = v->boolean();
  if (auto v = obj.find("anchored_damping")) s.anchored_damping = v->boolean();
  if (auto v = obj.find("compliance")) {
    // A bound (kMaxCompliance): 1e300 was taken, and so would a lost minus sign, 1e12 for 1e-12, every
    // joint then holding nothing without a word.
    s.compliance = v->non_negative();
    if (!(s.compliance <= CompliantSettings::kMaxCompliance))
      v->expected("a number from 0 to 1 (m/N, rad/(N·m): 1 lets 1 N stretch a joint by 1 m; a softer row is a "
                  "joint's own `stiffness` or a cable's DOF)");
  }
  if (auto v = obj.find("dense_rows")) s.dense_rows = v->integer_at_least(0);
  if (auto v = obj.find("projection_iterations")) s.projection_iterations = v->integer_at_least(0);
  if (auto v = obj.find("pgs_iterations")) s.pgs_iterations = v->integer_at_least(1);
  if (auto v = obj.find("pgs_tolerance")) s.pgs_tolerance = v->positive();
  if (auto v = obj.find("slack_cables")) s.slack_cables = v->boolean();
  if (auto v = obj.find("restitution")) {
    s.restitution = v->number();
    if (!(s.restitution >= 0.0 && s.restitution <= 1.0)) v->expected("a number in [0, 1]");
  }
  if (auto v = obj.find("curvature")) s.curvature = v->boolean();
  return s;
}

}  // namespace

const char* to_string(Stabilization s) {
  switch (s) {
    case Stabilization::none: return "none";
    case Stabilization::geometric_stiffness: return "geometric_stiffness";
    case Stabilization::inertial_damping: return "inertial_damping";
    case Stabilization::constraint_damping: return "constraint_damping";
    case Stabilization::automatic: return "auto";
  }
  return "?";
}

const char* to_string(AugmentedInverse s) { return s == AugmentedInverse::low_rank ? "low_rank" : "full_rank"; }

CompliantSettings read_compliant_settings(const Settings& settings, const std::filesystem::path& file) {
  const auto block = settings.solver_settings.find("compliant");
  if (block == settings.solver_settings.end()) return {};
  return read_compliant(JsonReader(block->second, "settings.compliant", file));
}

}  // namespace affix
