#pragma once
// `affix generate tree`: a tree of spheres hanging from a root pinned to the world.
//
// The root (level 0) has `branching` children, each of them `branching` children, down to level
// `depth`: Σ_{k=0}^{depth} branching^k spheres (radius 0.04 m, density 1000 kg/m³), numbered level
// by level. The tree is drawn in the xz-plane like a family tree: levels 0.25 m apart going down from
// the root at (0, 0, H), H = 0.25·depth + 0.1 m, the leaves 0.12 m apart along x, and every other node
// centred over the leaves below it — so the spacing of a node's children grows with the width of their
// subtrees. Two nodes of one level are at least 0.12 m apart (their leaf ranges are disjoint), nodes
// of different levels at least 0.25 m, so no two spheres start closer than 0.04 m. Each child hangs
// from its parent by a ball joint halfway between their centres, and the root is pinned to the world
// by a ball joint at its centre. The sideways offsets make the tree swing. No ground; dt 0.01 s, 2 s.
#include "affix/scene/scene.hpp"

namespace affix::generate {

struct TreeOptions {
  long long depth = 3;      ///< --depth: levels below the root, ≥ 1
  long long branching = 2;  ///< --branching: children per node, ≥ 1
};

/// Throws InputError naming the option when one is below 1, or both when the tree would have more
/// than kMaxBodies bodies.
Scene tree(const TreeOptions& options);

/// Σ_{k=0}^{depth} branching^k, or kMaxBodies + 1 when that is larger (never overflows).
long long tree_body_count(long long depth, long long branching);

}  // namespace affix::generate
