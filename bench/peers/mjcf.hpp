#pragma once
// The MJCF text of an affix model for MuJoCo 2.2.2, which has no model-building API (mjSpec came with
// 3.2): the articulated tree its joints form, as nested bodies, and connect equality constraints for
// the joints that close loops (He 2026's "loop" structures; Todorov's soft equality constraints).
//
// The tree: a breadth-first search from the world over the joint graph; a body reached first through
// joint k becomes the child of the body it came from, with the joint in its own frame (a ball joint's
// anchor, a hinge's anchor and axis, from the model's joint frame in that body). Bodies no joint
// reaches from the world start free subtrees (a freejoint on the first of them found in model order;
// fixed bodies are welded to the world). Every joint not used by the tree becomes a connect constraint
// (ball joints only; a hinge that closes a loop is refused), and so does a tree edge deeper than
// kMaxDepth levels, whose child then starts a new free subtree: MJCF nests bodies as XML elements, and
// the XML parser inside MuJoCo refuses deep nesting. Pairs joined by a connect constraint are excluded
// from contact (MuJoCo already filters parent and child).
#include <cstddef>
#include <string>
#include <vector>

#include "engine.hpp"

namespace affix::peers {

/// Deepest tree nesting written before a chain continues as a new free subtree.
inline constexpr int kMaxDepth = 90;

/// Most constraint rows allocated (MuJoCo 2.2's njmax; memory grows as its square).
inline constexpr std::size_t kMaxRows = 8192;

struct Mjcf {
  std::string xml;
  std::vector<int> free_bodies;     ///< model bodies with a freejoint (their initial velocity is set)
  int connects = 0;                 ///< equality constraints written
};

/// The MJCF of the model; throws InputError for what it cannot translate (naming the JSON path).
Mjcf write_mjcf(const BenchInput& input);

}  // namespace affix::peers
