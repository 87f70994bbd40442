#pragma once
// Islands: the connected components of the dynamic bodies under "may interact" (Box2D's islands,
// applied to the Newton solve). Two dynamic bodies interact when a contact candidate links them;
// fixed and kinematic bodies do not join islands, since they are not unknowns — two boxes resting
// on one fixed floor stay independent.
#include <array>
#include <vector>

#include "affix/body/affine_body.hpp"

namespace affix {

using Island = std::vector<int>;  ///< body indices, ascending

/// The root of i in a union-find forest (parent[r] == r at a root), halving the path on the way.
int find_root(std::vector<int>& parent, int i);

/// Components of the dynamic bodies under the given body pairs, ordered by their smallest body.
std::vector<Island> connected_islands(const std::vector<AffineBody>& bodies,
                                      const std::vector<std::array<int, 2>>& pairs);

}  // namespace affix
