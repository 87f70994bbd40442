#include "affix/solvers/ipc/newton_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/solvers/ipc/orthogonality_correction.hpp"

namespace affix {
namespace {

constexpr int kMaxHalvings = 40;
// A joint-row restoration move larger than this fraction of the island's size is taken without the
// energy test; below it the rows are exact to round-off and the step is an ordinary Newton step.
constexpr double kRestoringStep = 1e-10;
// Floor of an island's length scale (m), as for a point-like body.
constexpr double kMinIslandSize = 1e-6;
using BodyMask = IncrementalPotential::BodyMask;

/// The island's own length scale L: the diagonal of the box around its bodies' bounding spheres at q.
/// The stopping test is relative to it, so a body far away (a larger scene) never loosens the test.
double island_size(const DofLayout& layout, const VecX& q, const Island& island,
                   const std::vector<double>& radii) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int i : island) {
    const Vec3 p = body_segment(layout, q, i).head<3>();
    lo = lo.cwiseMin(p - Vec3::Constant(radii[i]));
    hi = hi.cwiseMax(p + Vec3::Constant(radii[i]));
  }
  return std::max((hi - lo).norm(), kMinIslandSize);
}

/// max over the island's bodies of (‖Δp‖∞ + r‖ΔA‖∞) / (h·L): a bound on every vertex's velocity
/// change, relative to the island's size L.
double scaled_step_norm(const DofLayout& layout, const VecX& dq, const Island& island, const std::vector<double>& radii, double h,
                        double length) {
  double largest = 0.0;
  for (int i : island) {
    const auto s = body_segment(layout, dq, i);
    largest = std::max(largest, s.head<3>().lpNorm<Eigen::Infinity>() +
                                    radii[i] * s.tail<9>().lpNorm<Eigen::Infinity>());
  }
  return largest / (h * length);
}

double island_sum(const std::vector<double>& per_body, const Island& island) {
  double sum = 0.0;
  for (int i : island) sum += per_body[i];
  return sum;
}

void set_island(BodyMask& mask, const Island& island, char value) {
  for (int i : island) mask[i] = value;
}

/// Per island the CCD-safe fraction of dq (needs swept candidates for dq).
std::vector<double> island_max_steps(const IncrementalPotential& potential, const VecX& q, const VecX& dq,
                                     const std::vector<Island>& islands, const BodyMask& mask) {
  const std::vector<double> per_body = potential.max_steps(q, dq, mask);
  std::vector<double> alpha(islands.size(), 1.0);
  for (std::size_t k = 0; k < islands.size(); ++k)
    for (int i : islands[k]) alpha[k] = std::min(alpha[k], per_body[i]);
  return alpha;
}

struct LineSearchOutcome {
  std::vector<int> stalled;  ///< islands (indices) that found no decrease
  int overflowed = -1;       ///< an island whose energy was not finite at any trial point, or −1
};

/// Backtracking along dq, each island with its own step: α starts at the island's CCD bound and halves
/// until its energy does not increase. A `restoring` island (its joint rows are not yet exact, so dq
/// need not descend) takes its CCD bound at once. A `finishing` island (converged: this is its last
/// step) is tried at its CCD bound only, and left where it is if that does not descend: its step is
/// then below what the energy's round-off can tell.
LineSearchOutcome island_line_search(const IncrementalPotential& potential, const StepConstants& c,
                                    VecX& q, const VecX& dq, const std::vector<Island>& islands,
                                    std::vector<int> pending, const std::vector<char>& restoring,
                                    const std::vector<char>& finishing, int& evaluations) {
  const DofLayout& layout = potential.layout();
  BodyMask mask(layout.body_count(), 0);
  for (int k : pending) set_island(mask, islands[k], 1);
  const std::vector<double> energy0 = potential.body_energies(q, c, mask);
  std::vector<double> alpha = island_max_steps(potential, q, dq, islands, mask);

  std::vector<char> saw_finite(islands.size(), 0);
  VecX trial = q;
  for (int halving = 0; halving < kMaxHalvings && !pending.empty(); ++halving) {
    for (int k : pending)
      for (int i : islands[k]) body_segment(layout, trial, i) = body_segment(layout, q, i) + alpha[k] * body_segment(layout, dq, i);
    ++evaluations;
    const std::vector<double> energy = potential.body_energies(trial, c, mask);
    std::vector<int> still_pending;
    for (int k : pending) {
      const double e = island_sum(energy, islands[k]);
      saw_finite[k] = saw_finite[k] || std::isfinite(e);
      if (std::isfinite(e) && (restoring[k] || e <= island_sum(energy0, islands[k]))) {
        for (int i : islands[k]) body_segment(layout, q, i) = body_segment(layout, trial, i);
        set_island(mask, islands[k], 0);
      } else if (finishing[k]) {
        set_island(mask, islands[k], 0);
      } else {
        alpha[k] *= 0.5;
        still_pending.push_back(k);
      }
    }
    pending = std::move(still_pending);
  }
  LineSearchOutcome outcome;
  for (int k : pending) {
    // Finite at the start and at no point of 40 halvings: the step is beyond double precision (an
    // absurd load or speed). Freezing the island would report a wrong motion as converged.
    if (!saw_finite[k] && std::isfinite(island_sum(energy0, islands[k]))) outcome.overflowed = k;
  }
  outcome.stalled = std::move(pending);
  return outcome;
}

/// "body 'a'" or "bodies 'a', 'b', 'c' and N more": who is in trouble, for an error message.
std::string name_bodies(const std::vector<AffineBody>& bodies, const std::vector<int>& which) {
  constexpr std::size_t kListed = 3;
  std::string text = which.size() == 1 ? "body " : "bodies ";
  for (std::size_t k = 0; k < which.size() && k < kListed; ++k)
    text += (k > 0 ? ", '" : "'") + excerpt(bodies[which[k]].name) + "'";
  if (which.size() > kListed) text += " and " + std::to_string(which.size() - kListed) + " more";
  return text;
}

/// The bodies whose part of `v` is not finite, else every body flagged in `mask`.
std::vector<int> suspects(const DofLayout& layout, const VecX& v, const BodyMask& mask) {
  std::vector<int> bad, flagged;
  for (int i = 0; i < static_cast<int>(mask.size()); ++i) {
    if (!body_segment(layout, v, i).allFinite()) bad.push_back(i);
    if (mask[i]) flagged.push_back(i);
  }
  return bad.empty() ? flagged : bad;
}

/// direction = dq + c (orthogonality_correction.hpp) on each group of bodies that H and the joint rows
/// couple (H is block-diagonal across them, so c restricted to one is its own solution) where the
/// correction is worth its solve and still descends clearly:
/// - the valley costs the full step more than kWorthCorrecting of the model's decrease −½gᵀdq (the
///   orthogonality energy above its quadratic model); below that the valley is not what shortens the
///   step, and a correction would only cost a solve (and, on a step that the CCD bound cuts short,
///   over-correct: c is sized for the whole step);
/// - gᵀ(dq + c) ≤ ½ gᵀdq < 0 over the group.
/// Elsewhere, and when the correction's solve fails, the direction stays dq.
constexpr double kWorthCorrecting = 0.25;

void add_orthogonality_correction(const IncrementalPotential& potential, const std::vector<AffineBody>& bodies,
                                  const VecX& q, const VecX& gradient, const BlockHessian& H, const VecX& dq,
                                  const BodyMask& unconverged, double beta_h2, const JointSpace& joints,
                                  SparseCholesky& linear_solver, VecX& direction) {
  const DofLayout& layout = potential.layout();
  VecX remainder, correction;
  std::vector<double> model_error;
  if (!orthogonality_remainder(bodies, layout, q, dq, beta_h2, unconverged, remainder, model_error)) return;
  const auto slope = [&](const Island& group, const VecX& step) {
    double sum = 0.0;
    for (int i : group) sum += body_segment(layout, gradient, i).dot(body_segment(layout, step, i));
    return sum;
  };
  std::vector<Island> groups = connected_islands(bodies, potential.coupled_body_pairs());
  std::erase_if(groups, [&](const Island& group) {
    const bool worth = island_sum(model_error, group) > kWorthCorrecting * -0.5 * slope(group, dq);
    if (!worth)
      for (int i : group) body_segment(layout, remainder, i).setZero();
    return !worth;
  });
  if (groups.empty()) return;
  if (joints.empty()) {
    correction = linear_solver.solve(-remainder);  // H's factors from this iteration's solve
  } else if (!joints.solve(H, remainder, VecX::Zero(q.size()), linear_solver, correction)) {
    return;
  }
  if (!correction.allFinite()) return;
  for (const Island& group : groups) {
    const double newton_slope = slope(group, dq), corrected_slope = newton_slope + slope(group, correction);
    if (!(newton_slope < 0.0 && corrected_slope <= 0.5 * newton_slope)) continue;
    for (int i : group) body_segment(layout, direction, i) += body_segment(layout, correction, i);
  }
}

/// The correction c is sized for the whole step: the orthogonality remainder is quadratic in the step,
/// so a step α·Δq needs α²·c. Where the CCD bound α₀ along Δq + c is below 1, the line search could
/// reach at most α₀(Δq + c), which over-corrects by (1 − α₀)·α₀·c: the body is pulled off the circle
/// inwards, the orthogonality energy rises, and the step was halved again (on the ragdoll's first
/// 0.57 s, 78 searches cut by CCD with a correction, 52 of them halved, 248 halvings). Such groups
/// search along Δq + α₀·c instead (at α₀ the point α₀Δq + α₀²c), swept again so that CCD and the
/// islands cover the new path. needs candidates swept along `direction`.
void scale_correction_to_ccd_bound(IncrementalPotential& potential, const std::vector<AffineBody>& bodies,
                                   const VecX& q, const VecX& dq, const BodyMask& unconverged, VecX& direction) {
  const DofLayout& layout = potential.layout();
  const std::vector<Island> islands = connected_islands(bodies, potential.coupled_body_pairs());
  const std::vector<double> alpha0 = island_max_steps(potential, q, direction, islands, unconverged);
  bool scaled = false;
  for (std::size_t k = 0; k < islands.size(); ++k) {
    if (alpha0[k] >= 1.0) continue;
    for (int i : islands[k]) {
      auto d = body_segment(layout, direction, i);
      const auto newton = body_segment(layout, dq, i);
      if (d == newton) continue;
      d = newton + alpha0[k] * (d - newton);
      scaled = true;
    }
  }
  if (scaled) potential.update_contact_candidates(q, &direction);
}

}  // namespace

void safe_island_move(IncrementalPotential& potential, const std::vector<AffineBody>& bodies, VecX& q,
                      const VecX& dq) {
  potential.update_contact_candidates(q, &dq);
  const std::vector<Island> islands = connected_islands(bodies, potential.coupled_body_pairs());
  const std::vector<double> alpha =
      island_max_steps(potential, q, dq, islands, BodyMask(bodies.size(), 1));
  const DofLayout& layout = potential.layout();
  for (std::size_t k = 0; k < islands.size(); ++k)
    for (int i : islands[k]) body_segment(layout, q, i) += alpha[k] * body_segment(layout, dq, i);
}

NewtonResult newton_solve(IncrementalPotential& potential, StepConstants& c, VecX& q,
                          const std::vector<AffineBody>& bodies, const std::vector<double>& body_radii,
                          const NewtonOptions& options, SparseCholesky& linear_solver,
                          const JointSpace& joints) {
  NewtonResult result;
  const int n = static_cast<int>(bodies.size());
  BodyMask unconverged(n, 0);
  for (int i = 0; i < n; ++i) unconverged[i] = !bodies[i].is_dirichlet();
  std::vector<double> last_residual(n, 0.0);  // of each body's island at its last check
  VecX gradient;
  BlockHessian H;
  potential.update_contact_candidates(q, nullptr);
  double min_distance = potential.min_barrier_distance(q);

  while (result.iterations < options.max_iterations &&
         std::find(unconverged.begin(), unconverged.end(), 1) != unconverged.end()) {
    // From the second pass on, the candidates are the last sweep's, which cover every point its line
    // search could accept, q included: a proximity set at q without another broad phase.
    potential.gradient_and_hessian(q, c, unconverged, gradient, H);
    if (!gradient.allFinite()) {
      throw SimulationError(name_bodies(bodies, suspects(potential.layout(), gradient, unconverged)) +
                            ": the Newton gradient is not finite (a load, speed or contact force beyond "
                            "double precision)");
    }
    VecX dq, delta = VecX::Zero(q.size());
    bool factorized = false;
    if (joints.empty()) {
      factorized = linear_solver.factorize(H);
      if (factorized) dq = linear_solver.solve(-gradient);
    } else {
      delta = joints.restoration(q);
      for (int i = 0; i < n; ++i)
        if (!unconverged[i]) body_segment(potential.layout(), delta, i).setZero();
      factorized = joints.solve(H, gradient, delta, linear_solver, dq);
    }
    if (!factorized) {
      throw SimulationError(name_bodies(bodies, suspects(potential.layout(), gradient, unconverged)) +
                            ": the Newton system is not finite or not positive definite");
    }

    // The line search's direction: the Newton step with its second-order correction for the
    // orthogonality valley (orthogonality_correction.hpp) where that still descends.
    VecX direction = dq;
    if (options.orthogonality_correction)
      add_orthogonality_correction(potential, bodies, q, gradient, H, dq, unconverged, c.beta_h2, joints,
                                   linear_solver, direction);
    potential.update_contact_candidates(q, &direction);
    if (options.correction_at_ccd_bound && direction != dq)
      scale_correction_to_ccd_bound(potential, bodies, q, dq, unconverged, direction);
    const std::vector<Island> islands = connected_islands(bodies, potential.coupled_body_pairs());
    std::vector<int> stepping;
    std::vector<char> restoring(islands.size(), 0), finishing(islands.size(), 0);
    for (int k = 0; k < static_cast<int>(islands.size()); ++k) {
      const Island& island = islands[k];
      const auto moving = std::count_if(island.begin(), island.end(), [&](int i) { return unconverged[i]; });
      if (moving == 0) continue;  // frozen and untouched
      const double length = island_size(potential.layout(), q, island, body_radii);
      const double residual = scaled_step_norm(potential.layout(), dq, island, body_radii, options.h, length);
      if (!std::isfinite(residual)) {
        throw SimulationError(name_bodies(bodies, island) + ": the Newton step is not finite");
      }
      for (int i : island) last_residual[i] = residual;
      restoring[k] = scaled_step_norm(potential.layout(), delta, island, body_radii, 1.0, length) > kRestoringStep;
      const bool rejoined = moving < static_cast<long>(island.size());  // held bodies were reached
      // The first direction is always taken: at rest it holds the whole effect of gravity and the
      // loads in this step, however small it is against the tolerance.
      const bool first = result.iterations == 0 && options.take_first_step;
      set_island(unconverged, island, 1);
      if (residual < options.tolerance && !rejoined && !restoring[k] && !first) {
        // Converged, and its last Newton step is taken all the same: it costs a line search but no new
        // solve, and in Newton's quadratic range it squares the remaining error. Without it the result
        // would be off by up to one step below the tolerance, which a stiff contact turns into a large
        // force error (two spheres meeting head on lost 23 % of their momentum at tolerance 1e-2).
        set_island(unconverged, island, 0);
        finishing[k] = 1;
      }
      stepping.push_back(k);
    }
    if (stepping.empty()) continue;
    // Counted as IPC counts: the steps of islands still iterating. A converged island's last step rides
    // on the solve that found it converged.
    if (std::any_of(stepping.begin(), stepping.end(), [&](int k) { return !finishing[k]; })) ++result.iterations;
    const LineSearchOutcome searched = island_line_search(potential, c, q, direction, islands, stepping, restoring,
                                                          finishing, result.line_search_evaluations);
    if (searched.overflowed >= 0) {
      throw SimulationError(name_bodies(bodies, islands[searched.overflowed]) +
                            ": the energy is not finite anywhere along the Newton step (a load or "
                            "speed beyond double precision)");
    }
    for (int k : searched.stalled) {
      ++result.warnings;  // no descent along Δq: stop this island rather than loop to the cap
      set_island(unconverged, islands[k], 0);
    }
    if (options.adaptive_kappa) {
      const double previous = min_distance;
      min_distance = potential.min_barrier_distance(q);
      c.kappa = updated_barrier_stiffness(c.kappa, previous, min_distance, options.dhat, options.kappa_bounds);
    }
  }
  result.residual = *std::max_element(last_residual.begin(), last_residual.end());
  result.converged = std::find(unconverged.begin(), unconverged.end(), 1) == unconverged.end() &&
                     result.warnings == 0;
  potential.update_contact_candidates(q, nullptr);
  return result;
}

}  // namespace affix
