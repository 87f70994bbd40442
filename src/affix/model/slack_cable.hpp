#pragma once
// A `cable` joint under settings.compliant.slack_cables: Andrews 2017's 6-D cable joint (App. A,
// "Flexible cable joint") whose axial row is a rope's instead of a rod's. With d = x₁ − x₂ (the joint
// point as body 1 and as body 2 carry it) and x₂ the cable's axis as body 2 carries it, the stretch is
//   e = σ d·x₂,   σ = ±1 making e > 0 body 1's side moving away from body 2's along the cable,
// and the joint allows −r ≤ e ≤ 0 with its five other rows (shear, bending, torsion) bilateral:
//   e ≤ 0      the rope pulls (tension T ≥ 0) and never pushes;
//   e ≥ −r     a stop in compression: the links cannot pass each other. A slack joint telescopes (its
//              other rows keep it a prismatic joint along the axis); without the stop a slack cable's
//              links slid along their axes without bound (hostile pass 16: a pendulum's load went 25 m
//              down through its top joint; the crane's links slid 4·10³–9·10⁴ m).
// σ is read from where body 1 lies relative to the anchor at t = 0: its origin's side along the axis
// (or, with body 1 beside the anchor, the opposite of body 2's). r is the shorter of the two bodies'
// lengths along the cable, ℓ_b = 2|(o_b − anchor)·axis| with o_b the body's origin at t = 0: a link
// jointed at both ends has its origin (its centre, for a primitive shape) half its length from each
// joint, so ℓ_b is its length, and at e = −r the shorter link lies wholly alongside the other. The
// world, and a body whose origin lies on the anchor's plane across the axis, has no length and bounds
// nothing; a joint that neither body bounds has r = 0 and stays rigid (no slack).
//
// The joint's gap (joints.csv's `error`, and the compliant solver's max_joint_error) is how far it is
// from that set: √(|d − (d·x₂)x₂|² + max(e, 0)² + max(−e − r, 0)²), the part of d across the axis and
// the stretch past either end.
#include <optional>

#include "affix/math/types.hpp"

namespace affix {

struct SlackCable {
  double sign = 1.0;   ///< σ
  double reach = 0.0;  ///< r (m); 0: the joint cannot go slack
};

/// σ and r of a cable joint at `anchor` along `axis` (unit) between bodies with origins o1 and o2 at
/// t = 0 (o2 absent: the world).
SlackCable slack_cable(const Vec3& anchor, const Vec3& axis, const Vec3& origin1, const std::optional<Vec3>& origin2);

/// The joint's gap (header) for the joint point's gap d = x₁ − x₂ and body 2's axis x₂ (unit).
double slack_cable_gap(const SlackCable& cable, const Vec3& d, const Vec3& axis2);

}  // namespace affix
