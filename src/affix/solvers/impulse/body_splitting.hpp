#pragma once
// Body splitting (Tomcin 2014 §5): a body carrying many joints makes the block of A = J M⁻¹ Jᵀ over
// those joints dense (they all couple through its M⁻¹: a clique in the elimination graph, Fig. 4 top),
// so its factorisation costs O(n_C³). The body is split once, before the simulation, into n_p parts of
// mass m/n_p and inertia Ī/n_p at its pose; the parts are welded together by n_p − 1 fixed joints (6
// rows each) at the centre of mass, and its joints are distributed over them. Welded, the parts move as
// the body did (their total mass and inertia are the body's, and the welds hold to ε_P like any joint),
// while every part couples only its own few joints: the clique is broken up (Fig. 4 bottom).
//
// The paper's Appendix B (the complexity and how to choose n_p) is lost from our copy. Here the parts
// form a chain, part i welded to part i − 1, and each carries about kJointsPerPart of the body's joints,
// so the largest clique is kJointsPerPart + 2 joints whatever the count, and the cost of the
// factorisation grows linearly with it (bench/bench_impulse.cpp). `settings.impulse.split_parts`
// overrides the count: 1 splits nothing, N ≥ 2 gives every body that would be split N parts.
// Only moving bodies with more than kSplitAbove joints are split; the parts have no collision geometry
// (contacts act on part 0, the model's body) and are not in the output.
#include <vector>

#include "affix/joints/rigid_jacobian.hpp"
#include "affix/solvers/rigid/rigid_body.hpp"

namespace affix {

/// Bodies with more joints than this are split (automatic or forced count).
constexpr int kSplitAbove = 8;
/// The joints each part carries when the count is automatic.
constexpr int kJointsPerPart = 4;

/// Splits the bodies (header): appends the parts to `bodies` (after the model's), moves joints onto
/// them (their body1/body2 become part indices) and appends the welds to `joints`. `parts_setting`: 0
/// automatic, 1 none, N ≥ 2 that many. Returns, for every body after the split, the model body it
/// belongs to.
std::vector<int> split_bodies(std::vector<RigidBody>& bodies, std::vector<RigidJoint>& joints, int parts_setting);

}  // namespace affix
