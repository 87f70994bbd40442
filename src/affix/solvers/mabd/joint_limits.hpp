#pragma once
// Joint limits in the mabd solver (He 2026 §4.6): "when we observe an out-of-range joint DOF, we clamp
// it to its nearest valid setup, and keep it for another Newton iteration while applying a dual-space
// penalty force at the r.h.s. of Eq. (26)". The paper avoids any implicit inequality mechanism so that
// each body's Hessian stays pre-factorised; so does this class.
//
// After the step's Newton iterations, every limited DOF (hinge `limits_deg`, prismatic and slider
// `limits`, cone_twist twist/swing1/swing2, a rope or strut distance's `min`/`max`) is read from the
// iterate (joint_dof, compact_rows.hpp). A DOF beyond its range becomes a clamp: one extra compact row
// holding it at the nearest bound (the "nearest valid setup"), kept for the rest of the step, and the
// step takes another Newton iteration with it in the KKT system. The clamp row's multiplier λ is the
// dual-space force the paper adds to the right-hand side, here solved for exactly rather than taken as a
// penalty, so the stop is hard and inelastic (implicit Euler's velocity into the stop is removed).
// Passes repeat while a clamp or a distance joint's row (nonlinear even with its frame held, so one
// iteration leaves (h v⊥)²/2L) is off by more than kTolerance, or a new DOF leaves its range, or a clamp
// is held and the Newton step is not yet below `settings.mabd.tolerance` (a stop's impulse turns the
// body within the step, and the co-rotated Hessian linearised at the prediction would leave a strain
// of O((hω)²) after one iteration): at most kMaxPasses per step, after which the step counts as hitting
// the iteration cap.
//
// Tolerance: after a step, no limited DOF is beyond its range by more than kTolerance (rad for angles,
// × the joint's control-tetrahedron edge ℓ for slides and distances), unless the step hit the cap. A
// clamp holds for one step only: the next step starts free, so a joint leaves its stop as soon as the
// unconstrained step would (the clamp never pulls for more than one step).
//
// Angles are unwrapped against their value at the start of the step, so a hinge range wider than 2π
// counts turns. The row count of a clamped joint changes, which the dual solver reclassifies
// (JointGraph::describes); a forced chain/tree solver was checked with every limit row in place.
#include <span>
#include <vector>

#include "affix/joints/compact_rows.hpp"
#include "affix/model/model.hpp"

namespace affix {

class JointLimits {
 public:
  static constexpr double kTolerance = 1e-12;  // rad, or relative to ℓ (header)
  static constexpr int kMaxPasses = 8;

  JointLimits() = default;
  /// The limits of the `active` joints (those with a moving side) of `model`, at the initial states q0.
  JointLimits(const Model& model, const std::vector<double>& edges, const std::vector<int>& active,
              const std::vector<Vec12>& q0);

  /// The clamps joint k holds now, in the order of its extra rows.
  std::span<const LimitClamp> clamps(int joint) const { return clamps_[joint]; }
  /// Whether any joint holds a clamp now (when not, no joint's clamps need to be read).
  bool any_clamps() const { return clamp_count_ > 0; }

  /// Forgets the last step's clamps.
  void begin_step();
  /// Reads the limited DOFs at the iterate q, clamps those out of range, and says whether the step
  /// needs another Newton iteration (header): a clamp or distance row is off, or a clamp is held and the
  /// last Newton step did not meet the solver's tolerance (`converged`); false once kMaxPasses were taken.
  bool another_pass(const std::vector<Vec12>& q, bool converged);
  /// Whether this step ran out of passes with a limit or distance still off.
  bool hit_cap() const { return hit_cap_; }
  /// Takes q as the start of the next step (the angles' unwrapping reference).
  void end_step(const std::vector<Vec12>& q);

  /// The largest excess over any range at q, as a length (m; an angle's times ℓ), 0 within range.
  double max_excess(const std::vector<Vec12>& q) const;

 private:
  struct Limit {
    int joint;
    JointDof dof;
    double min, max;
    double reference = 0.0;  // unwrapped value at the start of the step
  };
  double value(const Limit& limit, const std::vector<Vec12>& q) const;
  /// 1 for an angle, ℓ for a length: what kTolerance is relative to.
  double scale(const Limit& limit) const;

  const Model* model_ = nullptr;
  std::vector<double> edges_;
  std::vector<Limit> limits_;
  std::vector<int> clamped_;  // per limit: index into its joint's clamps, or −1
  std::vector<std::vector<LimitClamp>> clamps_;  // per model joint
  int clamp_count_ = 0;                          // Σ clamps_[k].size()
  std::vector<int> distance_joints_;             // active joints with a distance row
  int passes_ = 0;
  bool hit_cap_ = false;
};

}  // namespace affix
