#include "affix/energy/barrier.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace affix {

double barrier(double d, double dhat) {
  if (d >= dhat) return 0.0;
  if (d <= 0.0) return std::numeric_limits<double>::infinity();
  return -(d - dhat) * (d - dhat) * std::log(d / dhat);
}

double barrier_first_derivative(double d, double dhat) {
  if (d >= dhat) return 0.0;
  assert(d > 0.0);
  const double s = d - dhat;
  return -2.0 * s * std::log(d / dhat) - s * s / d;
}

double barrier_second_derivative(double d, double dhat) {
  if (d >= dhat) return 0.0;
  assert(d > 0.0);
  const double s = d - dhat;
  return -2.0 * std::log(d / dhat) - 4.0 * s / d + s * s / (d * d);
}

}  // namespace affix
