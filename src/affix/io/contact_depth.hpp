#pragma once
// Divergence seen from the contacts, whatever the back-end: a body sunk into another (or into the ground)
// by a sizeable fraction of itself is no longer resting on it, and a run that goes on from there reports
// physics it is not doing (a 100 kg box sank 0.37 m into a 0.5 m, 1 kg box under it at h = 1/60 with
// exit 0, hostile pass 2 of issue 15). The run loop (run.cpp) and the Python Simulator read, after every
// step, the deepest overlap the back-end reports (StepStats::overlap_*: compliant and impulse from FCL's
// contacts at the end of the step, mabd from its mesh vertices below the ground; ipc reports none, its
// contact is intersection-free) and stop the run with a SimulationError naming the two bodies when it is
// deeper than the pair's limit:
//   limit = kFraction · min(e₁, e₂),   e = the body's smallest half-extent (the ground: none),
// a box's half its smallest edge, a sphere's radius, a capsule's radius, a cylinder's min(radius, half its
// length), a torus's minor radius, an inline mesh's smallest half-extent of its box in its own axes, a
// compound's smallest part's (scaled by the part's smallest scale). kFraction = 1: the overlap has reached
// the thinner body's mid-plane, past which contact pushes it out the far side. A healthy run stays
// decades below it (a resting contact holds to 10⁻⁷ m, the 36-box pile's landing overlap is 1.9 cm against
// 0.2 m), while a landing can pass half of it for a step: a 200 kg car's wheels dropped on 5 cm planks at
// h = 1/60 overlapped one plank by 1.29 cm in one step (0 otherwise), and kFraction = ½ called that
// healthy run diverged (hostile pass 3 of 2026-11-25). A mesh read
// from a file has no extent here (its vertices are read at compile time) and is not checked.
// Only the deepest overlap of a step is judged, against its own pair's limit: a thin body sunk by more
// than its limit while a larger pair overlaps deeper is caught once it is the deepest.
#include <optional>
#include <string>
#include <vector>

#include "affix/model/step_stats.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

class ContactDepth {
 public:
  static constexpr double kFraction = 1.0;

  ContactDepth() = default;
  /// Each body's smallest half-extent (scene order).
  explicit ContactDepth(const Scene& scene);

  /// The overlap (m) past which bodies `body1` and `body2` (−1: the ground) count as sunk into each other;
  /// infinite when neither has an extent.
  double limit(int body1, int body2) const;

  struct Sunk {
    int body1 = -1, body2 = -1;  ///< scene indices; body2 −1: the ground
    double depth = 0.0;          ///< m
    double limit = 0.0;          ///< m
  };
  /// The step's deepest overlap when it passes its pair's limit; nothing otherwise.
  std::optional<Sunk> find(const StepStats& stats) const;
  /// The SimulationError's text for `sunk`: both bodies by name, the depth and the limit.
  std::string message(const std::vector<std::string>& names, const Sunk& sunk) const;

 private:
  std::vector<double> extent_;  // per body, m; infinite: not checked
};

}  // namespace affix
