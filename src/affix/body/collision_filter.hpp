#pragma once
// Which body pairs may touch (DESIGN §3): each one's group bit must be in the other's mask. A pair
// where neither body moves (fixed or kinematic) never needs contact.
#include "affix/body/affine_body.hpp"

namespace affix {

inline bool may_collide(const AffineBody& a, const AffineBody& b) {
  if (a.is_dirichlet() && b.is_dirichlet()) return false;
  return (a.collision.group & b.collision.mask) != 0 && (b.collision.group & a.collision.mask) != 0;
}

}  // namespace affix
