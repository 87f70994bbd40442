#pragma once
// The contact state at one evaluation point q, computed once and reused (Lan 2022 §4.3's first pass):
// the world vertices of every body, and each candidate's closest-feature stencil
// (contact_stencils.hpp) with its squared distance. A Newton iteration asks for the same point
// several times (gradient and Hessian, the line search's start energy, its CCD bound, the adaptive
// κ's closest distance), and a line search moves only the islands still searching: so vertices are
// recomputed only for the bodies whose DOFs changed, and a candidate is reduced again only when one
// of its two bodies moved. Buffers keep their capacity from one evaluation to the next (no allocation
// per evaluation once the sizes have settled).
#include <cstdint>
#include <vector>

#include "affix/solvers/contact/contact_stencils.hpp"

namespace affix {

/// World vertices of every body at the last q given, per body with a stamp that changes whenever
/// that body's vertices are recomputed.
class VertexCache {
 public:
  /// Recomputes the vertices of each body whose segment of q differs from the last one given.
  void move_to(const std::vector<AffineBody>& bodies, const DofLayout& layout, const VecX& q);
  const WorldVertices& vertices() const { return x_; }
  std::uint64_t stamp(int body) const { return stamp_[body]; }

 private:
  std::vector<Vec12> q_;  // each body's DOFs at its vertices' evaluation (NaN: never evaluated)
  std::vector<std::uint64_t> stamp_;
  WorldVertices x_;
  std::uint64_t clock_ = 0;
};

/// Reduced stencils of a fixed candidate list at the VertexCache's point.
///
/// A candidate whose two primitives' bounding boxes are at least `cutoff` (d̂) apart cannot be active,
/// and most swept candidates of a line search are such: reduce() then stores that box gap, a lower
/// bound of the distance, instead of classifying and measuring the closest features (the cost of a
/// reduction). Such a candidate is not `exact`: squared_distance(k) ≥ cutoff² is a lower bound and its
/// stencil is not set; reduce_exactly() measures it when the distance itself is wanted.
class CandidateEvaluation {
 public:
  /// A new candidate list: every reduction is forgotten. Candidates at least `cutoff` apart are
  /// bounded, not measured.
  void reset(std::size_t candidate_count, double cutoff);
  /// Reduces candidate k at `x`'s current point, unless neither of its bodies moved since its last
  /// reduction. Thread-safe for distinct k.
  void reduce(int k, const ContactCandidate& c, const std::vector<AffineBody>& bodies,
              const std::vector<std::vector<std::array<int, 2>>>& edges, const VertexCache& x);
  /// After reset() for `list`: takes over the reductions `previous` made of the same candidates in
  /// `previous_list` (both in find_contact_candidates' order), with their stamps, so that a new
  /// candidate list at the same point (the next Newton iteration's sweep starts where the last line
  /// search ended) does not reduce again what is already reduced there.
  void keep_matching(const CandidateEvaluation& previous, const std::vector<ContactCandidate>& previous_list,
                     const std::vector<ContactCandidate>& list);
  /// The same, always measuring the closest features (after reduce() at the same point).
  void reduce_exactly(int k, const ContactCandidate& c, const std::vector<AffineBody>& bodies,
                      const std::vector<std::vector<std::array<int, 2>>>& edges, const VertexCache& x);
  /// Whether candidate k's stencil and distance are measured (else: at least cutoff apart, bounded).
  bool exact(int k) const { return exact_[k] != 0; }
  const ContactStencil& stencil(int k) const { return stencils_[k]; }
  double squared_distance(int k) const { return squared_distances_[k]; }

 private:
  std::vector<ContactStencil> stencils_;
  std::vector<double> squared_distances_;
  std::vector<char> exact_;
  std::vector<std::array<std::uint64_t, 2>> stamps_;  // the bodies' vertex stamps at the reduction (0: none)
  double cutoff_ = 0.0;
};

}  // namespace affix
