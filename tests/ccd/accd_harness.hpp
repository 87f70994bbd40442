#pragma once
// One ACCD query checked against the brute-force trajectory reference, and per-category statistics.
// The checks (with s the separation ratio, d₀ = d(0) and g = s·d₀):
//  (1) never past the true impact — in fact d ≥ s²·d₀ on all of [0, toi] (the header's guarantee), so in
//      particular toi < t_impact;
//  (2) the step is safe: d(toi) ≥ g, up to rounding;
//  (3) no missed collision: a true impact in [0, tmax] gives toi < t_impact ≤ tmax;
//  (4) no false stop: when d stays clearly above g on all of [0, tmax] (and the cap is not hit), toi = tmax.
// The statistics record how conservative toi is against t_s, the first time d reaches g.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "affix/ccd/additive_ccd.hpp"
#include "ccd/brute_force.hpp"

namespace affix::test {

/// Absolute rounding allowance on distances for coordinates of size ~1.
inline constexpr double kDistanceRounding = 1e-14;
/// The distance below which the reference calls a time an impact.
inline constexpr double kImpactDistance = 1e-12;

struct AccdStats {
  explicit AccdStats(std::string name_) : name(std::move(name_)) {}

  std::string name;
  int cases = 0;
  int impacts = 0;     // a true impact in [0, tmax]
  int full_steps = 0;  // toi = tmax
  int cap_hits = 0;
  int failures = 0;
  long total_iterations = 0;
  int max_iterations = 0;
  double worst_margin = kInf;  // min over cases of d(toi) / g
  std::vector<double> ratios;  // toi / t_s where d reaches g in [0, tmax]

  double median_ratio() const {
    if (ratios.empty()) return kInf;
    std::vector<double> r = ratios;
    std::nth_element(r.begin(), r.begin() + r.size() / 2, r.end());
    return r[r.size() / 2];
  }
  double min_ratio() const { return ratios.empty() ? kInf : *std::min_element(ratios.begin(), ratios.end()); }
  double max_ratio() const { return ratios.empty() ? kInf : *std::max_element(ratios.begin(), ratios.end()); }

  /// One line for the test log (run the test binary to see it).
  void print() const {
    std::printf(
        "[ accd ] %-28s cases %5d  impacts %5d  full %5d  t_s %5zu  toi/t_s min %.4f median %.4f max %.4f"
        "  d(toi)/g-1 min %+.1e  iters mean %.1f max %d  caps %d\n",
        name.c_str(), cases, impacts, full_steps, ratios.size(), min_ratio(), median_ratio(), max_ratio(),
        worst_margin - 1.0, cases ? double(total_iterations) / cases : 0.0, max_iterations, cap_hits);
  }
};

/// Checks one result against the reference for the distance `distance(t)` of the original trajectory,
/// minus the minimum distance ξ (the CCD sees dist − ξ). `describe` names the case in failure messages.
inline void check_accd(AccdStats& stats, const std::function<double(double)>& distance, const CcdResult& result,
                       double s, double tmax, const std::string& describe, double xi = 0.0, int samples = 2048) {
  const TrajectoryReference ref([&](double t) { return distance(t) - xi; }, tmax, samples);
  ++stats.cases;
  stats.total_iterations += result.iterations;
  stats.max_iterations = std::max(stats.max_iterations, result.iterations);
  stats.cap_hits += result.hit_iteration_cap ? 1 : 0;
  const double toi = result.toi;
  const double d0 = ref.initial();
  const double gap = s * d0;
  std::ostringstream why;

  if (!(toi >= 0.0 && toi <= tmax)) why << "toi " << toi << " outside [0, " << tmax << "]; ";
  if (d0 <= 0.0) {
    if (toi != 0.0) why << "touching at t = 0 but toi " << toi << "; ";
  } else {
    // (1): d ≥ s²·d₀ on [0, toi], hence also no impact before toi.
    const double t_low = ref.first_time_at_or_below(s * gap * (1.0 - 1e-6) - kDistanceRounding);
    if (toi > t_low) why << "passes d = s²·d₀ at " << t_low << " (toi " << toi << "); ";
    const double t_impact = ref.first_time_at_or_below(kImpactDistance);
    if (t_impact <= tmax) {
      ++stats.impacts;
      if (!(toi < t_impact)) why << "missed impact at " << t_impact << " (toi " << toi << "); ";  // (3)
    }
    // (2)
    const double d_toi = ref(toi);
    stats.worst_margin = std::min(stats.worst_margin, d_toi / gap);
    if (d_toi < gap * (1.0 - 1e-9) - kDistanceRounding) why << "d(toi) = " << d_toi << " < s·d₀ = " << gap << "; ";
    // (4)
    if (!result.hit_iteration_cap && ref.minimum() > gap * (1.0 + 1e-6) + kDistanceRounding && toi != tmax) {
      why << "stopped at " << toi << " though d ≥ " << ref.minimum() << " > s·d₀ throughout; ";
    }
    const double t_s = ref.first_time_at_or_below(gap);
    if (t_s <= tmax && t_s > 0.0) stats.ratios.push_back(toi / t_s);
  }
  if (toi == tmax) ++stats.full_steps;
  if (!why.str().empty()) {
    if (++stats.failures <= 5) {
      ADD_FAILURE() << stats.name << " " << describe << ": " << why.str() << "d0 " << d0 << ", iterations "
                    << result.iterations;
    }
  }
}

/// A case that took ACCD's early out (no distance evaluated, additive_ccd.hpp) must be the full step;
/// counts it in `early`.
inline void count_early_out(const CcdResult& r, int& early) {
  if (r.iterations != 0) return;
  ++early;
  EXPECT_EQ(r.toi, 1.0);
}

/// Both sides of the early-out bound were reached, and no case failed the harness's checks.
inline void expect_both_sides_of_the_early_out(const AccdStats& stats, int early) {
  EXPECT_GT(early, stats.cases / 4);
  EXPECT_LT(early, stats.cases);
  EXPECT_EQ(stats.failures, 0);
}

}  // namespace affix::test
