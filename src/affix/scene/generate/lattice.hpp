#pragma once
// Where the loose piles and drops of generated scenes put their bodies: the points of a cubic lattice,
// filled row by row and layer by layer, each point jittered a little. Bodies inside spheres of radius
// r around lattice points `pitch` apart, each moved by at most `jitter` per axis, cannot touch while
// pitch ≥ 2r + 2·jitter + gap: two points differ by a whole pitch along at least one axis, and the
// jitter takes at most 2·jitter of it back.
#include "affix/math/types.hpp"

namespace affix::generate {

struct Lattice {
  long long per_row = 1;      ///< points along x
  long long per_layer = 1;    ///< points per horizontal layer (rows of per_row along y)
  double pitch = 1.0;         ///< m between neighbouring points, in x, y and z
  double base_height = 0.0;   ///< z of the lowest layer (m)

  /// The index-th point (0-based), centred on the z axis in x and y.
  Vec3 point(long long index) const;
};

/// The lattice with `per_row` × `per_row` points per layer.
Lattice square_lattice(long long per_row, double pitch, double base_height);

}  // namespace affix::generate
