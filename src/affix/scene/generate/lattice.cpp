#include "affix/scene/generate/lattice.hpp"

namespace affix::generate {

Vec3 Lattice::point(long long index) const {
  const long long rows = per_layer / per_row;
  const long long layer = index / per_layer;
  const long long in_layer = index % per_layer;
  const long long row = in_layer / per_row;
  const long long column = in_layer % per_row;
  return {(static_cast<double>(column) - 0.5 * static_cast<double>(per_row - 1)) * pitch,
          (static_cast<double>(row) - 0.5 * static_cast<double>(rows - 1)) * pitch,
          base_height + static_cast<double>(layer) * pitch};
}

Lattice square_lattice(long long per_row, double pitch, double base_height) {
  return Lattice{per_row, per_row * per_row, pitch, base_height};
}

}  // namespace affix::generate
