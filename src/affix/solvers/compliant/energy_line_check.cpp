#include "affix/solvers/compliant/energy_line_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "affix/error.hpp"

namespace affix {
namespace {

/// Four significant digits and a unit: a message's numbers are for reading.
std::string number(double value, const char* unit) {
  char text[40];
  std::snprintf(text, sizeof text, "%.4g%s", value, unit);
  return text;
}

}  // namespace

EnergyLineCheck::EnergyLineCheck(double energy, double shadow, double potential, double body_scale)
    : start_energy_(energy), start_shadow_(shadow), lowest_potential_(potential), body_scale_(body_scale) {}

void EnergyLineCheck::check(double energy, double shadow, double potential, double line) {
  lowest_potential_ = std::min(lowest_potential_, potential);
  const double level = line + start_shadow_;  // the line in shadow energies
  const double scale = std::max(level - lowest_potential_, 0.0) + body_scale_ + kFloor * std::abs(start_energy_);
  const double excess = energy + shadow - level;
  worst_excess_ = std::max(worst_excess_, excess);
  if (scale > 0.0) worst_ = std::max(worst_, excess / scale);
  // !(excess <= …): an energy that is not a number has diverged too (check_finite reports the state first).
  if (excess <= kMargin * scale) return;
  throw SimulationError("the mechanical energy rose above its energy line: E + ½hm g·v = " +
                        number(energy + shadow, " J") + " against a line of " + number(level, " J") +
                        " (the energy at t = 0 plus the work of the scene's forces, prescribed bodies and drives), "
                        "an excess of " + number(excess, " J") + ", past the limit of " +
                        number(kMargin * scale, " J") + " (" + number(kMargin, "") +
                        " × the kinetic energy the line allows plus the bodies' weights times their sizes): the "
                        "simulation diverged (try a smaller dt, or see the solver's stabilization in the README)");
}

}  // namespace affix
