#pragma once
// Additive continuous collision detection (ACCD; Li et al. 2021, "Codimensional Incremental Potential
// Contact", Alg. 1) for a pair of primitives whose vertices move linearly, x_i(t) = x_i + t Δx_i. Affine
// bodies move every surface vertex linearly along a Newton direction in q (Lan 2022 §4.1), so this is the
// narrow phase of the IPC line search: the returned toi is the line search's largest allowed step.
//
// Algorithm. Let A and B be the two primitives (point, edge or triangle), d(t) their unsigned distance
// minus the minimum distance ξ, and s ∈ (0, 1) the minimum separation ratio.
//  1. Subtract the mean m of all the Δx_i from each of them: a common translation changes no distance
//     (any common vector would do; the mean usually gives the smallest bound below).
//  2. Every point of a primitive is a fixed convex combination of its vertices, so it moves no faster
//     than the fastest of them, and the gap between any point of A and any point of B changes at a rate
//     of at most l_p = max_{i∈A} |Δx_i − m| + max_{j∈B} |Δx_j − m|. Hence d is l_p-Lipschitz in t:
//         d(t + τ) ≥ d(t) − l_p τ    for τ ≥ 0.                                              (★)
//  3. From t = 0, d₀ = d(0) and the gap g = s·d₀, try the step τ = (1 − s)·d(t)/l_p. By (★) the
//     distance stays ≥ s·d(t) > 0 on [t, t + τ], so no contact can be stepped over. Evaluate d at the
//     trial time (clamped to tmax); if d ≥ g, accept it and repeat.
//  4. When a trial comes closer than g, advance once more, without evaluating, by (d(t) − g)/l_p: by (★)
//     the distance stays ≥ g up to there. That time is the toi.
// Early out: with L ≤ d₀ the gap between the primitives' bounding boxes at t = 0, (1 − s)·(L − ξ) ≥
// l_p·tmax means the first trial of step 3 reaches tmax and is accepted (by (★), d(tmax) ≥ s·d₀), so
// toi = tmax is returned with no distance evaluated (iterations 0): the same answer, without the two
// exact distances, for the far candidates that make up most of a line search's queries.
// In the head-on case (the relative motion a pure approach at the rate l_p, e.g. a point falling
// straight onto a resting triangle) the first trial lands exactly at d = g, so toi is the time where the
// distance reaches s·d₀; in general toi is within one step of the last trial time with d ≥ g.
//
// Guarantees (exact arithmetic):
//  - never past the true impact: d(t) ≥ s·g = s²·d₀ > 0 for every t in [0, toi];
//  - the s·d₀ guarantee: d(toi) ≥ s·d₀, so a line search whose first trial step is toi starts with the
//    pair at least s·d₀ apart, and every shorter step keeps it at least s²·d₀ apart (the barrier is
//    finite on the whole segment);
//  - no false stop: when d ≥ g on all of [0, tmax], toi = tmax.
// In floating point, d and l_p carry rounding errors of about ε·|x|; the margins are relative to d₀, so
// this holds while d₀ ≫ ε·|x| (ACCD's own caveat). Sliding at a small distance d over a length L takes
// about L/((1 − s)·d) iterations; the cap bounds the cost, and when it is hit toi is the last accepted
// time advanced as in step 4, which keeps every guarantee above except the last (it is short, not
// unsafe). Special cases: d₀ ≤ 0 (touching, or within ξ) or non-finite input gives toi = 0; no relative
// motion (l_p = 0) gives toi = tmax with no iterations.
#include "affix/math/types.hpp"

namespace affix {

/// The result of an ACCD query.
struct CcdResult {
  double toi;              ///< largest safe time in [0, tmax] found (tmax when nothing comes within s·d₀)
  bool hit_iteration_cap;  ///< stopped by max_iterations: toi is safe but may be short of the true bound
  int iterations;          ///< distance evaluations after the initial one
};

// Shared parameters of the queries below:
//   min_separation_ratio  s ∈ (0, 1): toi keeps the pair at least s·d₀ apart (ACCD uses 0.1);
//   tmax                  ≥ 0: the end of the time interval [0, tmax];
//   max_iterations        the cap on trial steps (each one evaluation of the distance);
//   minimum_distance      ξ ≥ 0: the distance counted as contact (a thickness); d = dist − ξ.
// The first group of arguments is the positions at t = 0, the second the displacements over t ∈ [0, 1].

CcdResult point_point_accd(const Vec3& p, const Vec3& q, const Vec3& dp, const Vec3& dq,
                           double min_separation_ratio = 0.1, double tmax = 1.0, int max_iterations = 1'000'000,
                           double minimum_distance = 0.0);

/// Point p against the closed segment [e0, e1].
CcdResult point_edge_accd(const Vec3& p, const Vec3& e0, const Vec3& e1, const Vec3& dp, const Vec3& de0,
                          const Vec3& de1, double min_separation_ratio = 0.1, double tmax = 1.0,
                          int max_iterations = 1'000'000, double minimum_distance = 0.0);

/// Point p against the closed triangle (t0, t1, t2).
CcdResult point_triangle_accd(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, const Vec3& dp,
                              const Vec3& dt0, const Vec3& dt1, const Vec3& dt2, double min_separation_ratio = 0.1,
                              double tmax = 1.0, int max_iterations = 1'000'000, double minimum_distance = 0.0);

/// The closed segments [ea0, ea1] and [eb0, eb1].
CcdResult edge_edge_accd(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, const Vec3& dea0,
                         const Vec3& dea1, const Vec3& deb0, const Vec3& deb1, double min_separation_ratio = 0.1,
                         double tmax = 1.0, int max_iterations = 1'000'000, double minimum_distance = 0.0);

/// A lower bound of what point_triangle_accd returns for the same arguments, measuring no distance:
/// min(tmax, (1 − s)·(L − ξ)/l_p), L ≤ d₀ the larger of `distance_bound` (a lower bound of the
/// primitives' distance at t = 0 known to the caller, such as a cached distance) and the gap between
/// their boxes. It is the algorithm's first step, below which its answer never falls (a rejected first
/// trial returns exactly it, an accepted one only goes further), shrunk by a relative 10⁻⁹ for the
/// rounding of d₀ and of the step. 0 when L ≤ ξ or the input is not finite. A line search whose running
/// bound for both bodies is already at or below it can skip the query: its answer could lower neither
/// (contact/body_contact_model.cpp).
double point_triangle_accd_lower_bound(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2, const Vec3& dp,
                                       const Vec3& dt0, const Vec3& dt1, const Vec3& dt2, double distance_bound = 0.0,
                                       double min_separation_ratio = 0.1, double tmax = 1.0,
                                       double minimum_distance = 0.0);
/// The same for edge_edge_accd.
double edge_edge_accd_lower_bound(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                  const Vec3& dea0, const Vec3& dea1, const Vec3& deb0, const Vec3& deb1,
                                  double distance_bound = 0.0, double min_separation_ratio = 0.1, double tmax = 1.0,
                                  double minimum_distance = 0.0);

}  // namespace affix
