#pragma once
// The random numbers of the generated scenes (jitter, sizes, orientations). SplitMix64 (Steele, Lea
// and Flood 2014) rather than <random>: its output is fixed by its few lines here, while the standard
// distributions may differ between library versions, and a generated scene must be the same file for
// the same options everywhere.
#include <cmath>
#include <cstdint>
#include <numbers>

#include "affix/math/types.hpp"

namespace affix::generate {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1): the top 53 bits as the mantissa.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  /// A rotation uniform over SO(3) (Shoemake 1992, "Uniform random rotations").
  Quat rotation() {
    const double u1 = uniform(), u2 = uniform(), u3 = uniform();
    const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    const double t2 = 2.0 * std::numbers::pi * u2, t3 = 2.0 * std::numbers::pi * u3;
    return Quat(b * std::cos(t3), a * std::sin(t2), a * std::cos(t2), b * std::sin(t3));
  }

 private:
  std::uint64_t state_;
};

}  // namespace affix::generate
