#pragma once
// The swing limit of a cone_twist joint as one cone (Bullet's btConeTwistConstraint, PhysX's cone
// limit, MuJoCo's ball `range`), not two independent Euler angles: bounding swing1 and swing2 each to
// ±30° lets the twist axis tilt to 41.4° on the diagonal, the corner of a box.
//
// a: body 1's twist axis x₁ in body 2's joint frame, a = F₂ᵀx₁ = M e_x (M = F₂ᵀF₁, rigid_jacobian.hpp).
// Its swing is the rotation that takes e_x to a about an axis ⟂ e_x (the swing of a swing–twist
// decomposition; the twist about a does not enter): the angle θ = atan2(r, a_x), r = ‖(a_y, a_z)‖, about
// the unit direction n = (n₁, n₂) = (−a_z, a_y)/r in the joint frame's (y, z) plane, so that the swing
// vector θn is (swing1, swing2) for a swing about y or z alone (R_y(s)e_x = (cos s, 0, −sin s),
// R_z(s)e_x = (cos s, sin s, 0)).
//
// The cone bounds θ by the ellipse through the four spans (Bullet's elliptic cone when the two differ):
//   θ_lim(n) = (n₁²/Y² + n₂²/Z²)^(−1/2),  Y = swing1 max (n₁ ≥ 0) or −min (n₁ < 0), Z likewise for swing2,
// a quarter ellipse per quadrant, so asymmetric ranges are allowed; the boundary is C¹ across the axes
// (∂θ_lim/∂n₁ ∝ n₁/Y² → 0 from both sides). The limit coordinate is the angle past the cone along the swing,
//   s = θ − θ_lim(n) ≤ 0,
// radians like every angular limit. Its gradient with respect to a:
//   ∂θ/∂a = (−r, a_x a_y / r, a_x a_z / r) / (r² + a_x²),
//   ∂θ_lim/∂n = −θ_lim³ (n₁/Y², n₂/Z²) =: ℓ,  ∂θ_lim/∂(a_y, a_z) via n = p/r, p = (−a_z, a_y):
//   m = (I − nnᵀ) ℓ / r,  ∂θ_lim/∂a_y = m₂,  ∂θ_lim/∂a_z = −m₁.
// (The row's Jacobian: ȧ = F₂ᵀ((ω₁ − ω₂) × x₁), so ṡ = g·(ω₁ − ω₂) with g = x₁ × F₂ ∂s/∂a.)
// s is not differentiable at θ = 0, where n is undefined, nor at θ = π; at r below 1e-12 the direction
// n = (1, 0) is taken (s = −Y there), which only a speculative row far from its bound ever reads.
#include "affix/math/types.hpp"

namespace affix {

/// The four swing spans (rad): swing1 ∈ [−y_min, y_max], swing2 ∈ [−z_min, z_max], each > 0.
struct SwingCone {
  double y_max = 0.0, y_min = 0.0, z_max = 0.0, z_min = 0.0;
};

/// Swing ranges [min1, max1] and [min2, max2] (rad) make a cone when each holds 0 strictly inside.
inline bool makes_swing_cone(double min1, double max1, double min2, double max2) {
  return min1 < 0.0 && max1 > 0.0 && min2 < 0.0 && max2 > 0.0;
}

struct SwingConeValue {
  double value = 0.0;           ///< s = θ − θ_lim(n) (rad): > 0 outside the cone
  Vec3 gradient = Vec3::Zero();  ///< ∂s/∂a
  double theta = 0.0;           ///< θ, the swing angle
  double limit = 0.0;           ///< θ_lim(n)
};

/// s and ∂s/∂a at a (unit; the joint frame of body 2), header comment.
SwingConeValue swing_cone(const Vec3& a, const SwingCone& cone);

}  // namespace affix
