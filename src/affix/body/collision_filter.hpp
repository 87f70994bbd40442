#pragma once
// Which body pairs may touch (DESIGN §3): each one's group bit must be in the other's mask, and
// bodies joined with collide_connected false never touch. A pair where neither body moves (fixed or
// kinematic) never needs contact.
#include <algorithm>
#include <vector>

#include "affix/body/affine_body.hpp"

namespace affix {

inline bool may_collide(const std::vector<AffineBody>& bodies, int i, int j) {
  const AffineBody& a = bodies[i];
  const AffineBody& b = bodies[j];
  if (a.is_dirichlet() && b.is_dirichlet()) return false;
  if (std::find(a.no_contact_with.begin(), a.no_contact_with.end(), j) != a.no_contact_with.end())
    return false;
  return (a.collision.group & b.collision.mask) != 0 && (b.collision.group & a.collision.mask) != 0;
}

}  // namespace affix
