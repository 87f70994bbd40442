#pragma once
// A uniform grid of cells over a region, each cell listing the stored boxes that overlap it: the
// mid phase of mesh_intersection.hpp, pairing the edges of one mesh with the triangles of the other
// near them in about linear time where a sort-and-sweep would scan O(√n) neighbours along its axis
// per primitive on a surface of n triangles.
#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "affix/geometry/aabb.hpp"

namespace affix {

class UniformGrid {
 public:
  /// Bins the boxes that intersect `region` (empty ones are skipped). Cells are about the mean size
  /// of those boxes, coarsened until there are at most kMaxCellsPerBox cells per box, so memory stays
  /// linear. `boxes` is kept by reference and must outlive the grid.
  UniformGrid(std::span<const Aabb> boxes, const Aabb& region);

  static constexpr int kMaxCellsPerBox = 8;

  /// Calls visit(k) once for every stored box k that intersects `query`; visit returns true to stop,
  /// and so does this function then.
  template <typename Visit>
  bool for_each_intersecting(const Aabb& query, Visit&& visit) const {
    const std::array<int, 3> lo = cell_of(query.min), hi = cell_of(query.max);
    for (int i = lo[0]; i <= hi[0]; ++i) {
      for (int j = lo[1]; j <= hi[1]; ++j) {
        for (int k = lo[2]; k <= hi[2]; ++k) {
          const int cell = index_of({i, j, k});
          for (int e = cell_start_[cell]; e < cell_start_[cell + 1]; ++e) {
            const int b = entries_[e];
            // A pair of boxes shares every cell their intersection covers; report it only in the cell
            // of the intersection's lower corner max(query.min, box.min), so exactly once.
            if (boxes_[b].intersects(query) && cell_of(query.min.cwiseMax(boxes_[b].min)) == std::array{i, j, k} &&
                visit(b)) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  /// Cells along each axis (for tests).
  std::array<int, 3> dimensions() const { return dims_; }

 private:
  /// The cell containing x, clamped into the grid (so points outside the region land on its border
  /// cells, and the map is monotone along each axis).
  std::array<int, 3> cell_of(const Vec3& x) const;
  int index_of(const std::array<int, 3>& c) const { return (c[0] * dims_[1] + c[1]) * dims_[2] + c[2]; }

  std::span<const Aabb> boxes_;
  Vec3 origin_ = Vec3::Zero();
  Vec3 cells_per_length_ = Vec3::Zero();  ///< dims/extent per axis; 0 along a flat axis
  std::array<int, 3> dims_{1, 1, 1};
  std::vector<int> cell_start_;  ///< the boxes of cell c are entries_[cell_start_[c] .. cell_start_[c + 1])
  std::vector<int> entries_;
};

}  // namespace affix
