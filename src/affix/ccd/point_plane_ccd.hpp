#pragma once
// Linear CCD of a point against a plane. Along a linear trajectory the signed distance is linear,
// d(α) = d₀ + α (d₁ − d₀), and the time of impact α* = d₀ / (d₀ − d₁) (for d₁ < 0) is exact. As in
// additive CCD (Li 2021) the step stops short of it, at the distance s·d₀, so that the line search never
// lands on a zero distance where the barrier is infinite, and never passes the true impact.
#include <algorithm>

namespace affix {

/// Largest α ∈ [0, 1] with d(α) ≥ s·d₀ for the linear d(α) from d₀ (> 0) to d₁; s = min_separation.
inline double point_plane_max_step(double d0, double d1, double min_separation = 0.1) {
  const double target = min_separation * d0;
  if (d1 >= target) return 1.0;
  return std::clamp((d0 - target) / (d0 - d1), 0.0, 1.0);
}

}  // namespace affix
