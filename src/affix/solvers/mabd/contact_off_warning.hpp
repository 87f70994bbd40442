#pragma once
// With settings.mabd.body_contact off (the default) mabd's bodies feel only the ground: two bodies that
// overlap, or fall into each other, pass through without a word (hostile pass D4: the five boxes of
// examples/stack.json ended at one place). So the solver warns once, at the start, naming the first
// pair of bodies that can touch (Model::may_collide: filters, joints that exclude their pair) and whose
// boxes meet:
//   - each body's world box at t = 0 (its mesh's rest box turned and placed by its initial pose), grown
//     by the contact thickness ξ;
//   - a body with no joint and no prescribed motion swept along its free flight x(t) = x₀ + v₀t + ½gt²
//     for t ∈ [0, duration] (the box of the path's ends and of its turning point per axis), so that a
//     box dropped onto another counts; a jointed body's box is its box at t = 0 only (its motion is the
//     mechanism's, which this check does not predict).
// Sort-and-sweep over the boxes (geometry/sweep_and_prune.hpp): O(n log n), run once per simulator.
#include <array>
#include <optional>

#include "affix/model/model.hpp"

namespace affix {

/// The first pair (i < j, in sweep order) of bodies that can touch by the rule above; none when none.
/// `thickness` is ξ (m).
std::optional<std::array<int, 2>> bodies_that_can_touch(const Model& model, double thickness);

/// Prints "affix: warning: FILE: bodies 'a' and 'b' can touch, but settings.mabd.body_contact is off…"
/// on stderr when bodies_that_can_touch finds a pair.
void warn_when_bodies_can_touch(const Model& model, double thickness);

}  // namespace affix
