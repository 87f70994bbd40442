#pragma once
// The structure of the linear joint rows C Δq = e of the ipc Newton step (joint_space.hpp) as a forest
// of bodies, for the tree solve of the KKT system (tree_kkt.hpp; He 2026 §5.2–5.3).
//
// Bodies are nodes. A row with terms on two bodies is an edge between them, a row with terms on one
// body is "unary" (its other side is the world or a prescribed body, already moved to the right-hand
// side). Each connected group of bodies must be a tree of body pairs (several rows, of one or more
// joints, may join the same pair: they are one edge); it is rooted at a body with the most unary rows
// (the one hung from the world, where there is one). Every body then owns its rows: the rows of the edge
// to its parent and its unary rows, at most 12 (a body has 12 DOFs; more rows are redundant and would
// make its local system singular). A body without rows is a root of its own. Cost and memory: linear
// in the bodies and rows.
//
// Not a forest (the rows then go to the null-space reduction): a row on three or more bodies, a closed
// loop of body pairs, a body that owns more than 12 rows. `why()` says which, for messages.
#include <string>
#include <vector>

#include "affix/joints/basis_extension.hpp"
#include "affix/model/dof_layout.hpp"

namespace affix {

class JointForest {
 public:
  JointForest() = default;
  /// `rows`: the joint rows on the dynamic DOFs of `layout` (every body an affine one).
  JointForest(const DofLayout& layout, const std::vector<SparseRow>& rows);

  bool is_forest() const { return why_.empty(); }
  /// Why the rows are not a forest ("" when they are).
  const std::string& why() const { return why_; }

  int body_count() const { return static_cast<int>(parent_.size()); }
  /// The parent of body b (−1 at a root).
  int parent(int b) const { return parent_[b]; }
  /// The rows body b owns (indices into the constructor's rows): those of its parent edge first, then its
  /// unary rows, each group ascending.
  const std::vector<int>& rows_of(int b) const { return rows_of_[b]; }
  /// How many of rows_of(b) are on the parent edge.
  int parent_rows(int b) const { return parent_rows_[b]; }
  /// Every body, children before parents (so each root after its tree).
  const std::vector<int>& leaves_first() const { return leaves_first_; }
  /// Whether bodies i and j are parent and child.
  bool is_edge(int i, int j) const { return i != j && (parent_[i] == j || parent_[j] == i); }

 private:
  std::vector<int> parent_, parent_rows_, leaves_first_;
  std::vector<std::vector<int>> rows_of_;
  std::string why_;
};

}  // namespace affix
