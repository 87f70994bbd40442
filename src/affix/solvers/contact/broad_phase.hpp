#pragma once
// The incremental broad phase of the ipc solver: the candidate list of find_contact_candidates
// (contact_candidates.hpp, Lan 2022 §4.2), rebuilt only where a body's state changed since the last
// list. A Newton solve asks for candidates once per iteration (swept along the step) and once more at
// its end; after the first iterations most islands have converged and hold still, so most bodies keep
// their state from one call to the next.
//
// Every stage is a function of the two bodies' states alone: a body's box and its primitives' boxes
// of its states at both ends of the sweep (a proximity list is the sweep that does not move), and a
// body pair's candidates of the two bodies' boxes (pair_candidates). So a body whose DOFs at both ends
// are bit for bit those of the last call keeps its boxes, and a pair of two such bodies keeps its
// candidates; only the pairs with a changed body are paired again. The list is then identical to a full
// rebuild, in the same order (body pair by body pair, each pair's candidates sorted). The body pairs
// come from a sort-and-sweep whose order is kept between calls and re-sorted by insertion (nearly
// sorted when few bodies move). Buffers keep their capacity: no allocation once the sizes have settled.
#include <array>
#include <vector>

#include "affix/model/dof_layout.hpp"
#include "affix/solvers/contact/contact_candidates.hpp"

namespace affix {

class BroadPhase {
 public:
  BroadPhase(const std::vector<AffineBody>& bodies, const DofLayout& layout,
             const std::vector<std::vector<std::array<int, 2>>>& edges, double margin);
  BroadPhase(const BroadPhase&) = delete;  // refers to its owner's edges
  BroadPhase& operator=(const BroadPhase&) = delete;

  /// The candidates at q (q_end == nullptr) or swept over q → *q_end, x0 and x1 the bodies' world
  /// vertices there: find_contact_candidates(bodies, edges, x0, x1, margin), element for element.
  const std::vector<ContactCandidate>& update(const VecX& q, const VecX* q_end, const WorldVertices& x0,
                                              const WorldVertices* x1);
  const std::vector<ContactCandidate>& candidates() const { return candidates_; }

  /// Body pairs of the last update whose candidates were kept, and those paired again (for tests).
  int kept_pairs() const { return kept_pairs_; }
  int paired_pairs() const { return paired_pairs_; }

 private:
  /// The overlapping body pairs that may collide, sorted, into next_pairs_.
  void sweep_and_prune();

  const std::vector<AffineBody>& bodies_;
  DofLayout layout_;
  const std::vector<std::vector<std::array<int, 2>>>& edges_;
  double margin_;
  // Per body: its DOFs at both ends of the last sweep (NaN: never seen), its box, its primitives'
  // boxes (valid while prims_valid_), and whether the last update changed it.
  std::vector<Vec12> q0_, q1_;
  std::vector<Aabb> boxes_;
  std::vector<PrimitiveBoxes> prims_;
  std::vector<char> prims_valid_, changed_;
  std::vector<int> order_;  // bodies by their box's lower x bound, kept between calls
  // The current list: body pairs, each pair's candidates candidates_[first_[k] .. first_[k + 1]).
  std::vector<std::array<int, 2>> pairs_, next_pairs_;
  std::vector<int> first_, next_first_;
  std::vector<ContactCandidate> candidates_, next_candidates_;
  std::vector<int> source_;  // per next pair: its index in pairs_ when kept, else −1 − its fresh_ slot
  std::vector<int> fresh_pairs_;
  std::vector<std::vector<ContactCandidate>> fresh_;
  std::vector<int> needed_;
  int kept_pairs_ = 0, paired_pairs_ = 0;
};

}  // namespace affix
