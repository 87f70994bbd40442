#include "affix/geometry/uniform_grid.hpp"

#include <cmath>

namespace affix {

UniformGrid::UniformGrid(std::span<const Aabb> boxes, const Aabb& region) : boxes_(boxes) {
  std::vector<int> stored;
  double mean_size = 0.0;
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    if (boxes[b].intersects(region)) {
      stored.push_back(static_cast<int>(b));
      mean_size += boxes[b].diagonal().maxCoeff();
    }
  }
  const Vec3 extent = region.diagonal();
  if (!stored.empty()) {
    mean_size /= static_cast<double>(stored.size());
    // Cell edge h: start at the mean box size (about one box per cell on a surface) and grow by 3/2
    // until Π_k ⌈extent_k/h⌉ ≤ kMaxCellsPerBox · n, which bounds the memory by O(n).
    const double cap = static_cast<double>(kMaxCellsPerBox) * static_cast<double>(stored.size());
    double h = mean_size > 0.0 ? mean_size : extent.maxCoeff();
    if (h > 0.0) {
      Vec3 cells;
      while (true) {
        cells = (extent / h).array().ceil().max(1.0);
        if (cells.prod() <= cap) {
          break;
        }
        h *= 1.5;
      }
      for (int k = 0; k < 3; ++k) {
        dims_[k] = static_cast<int>(cells[k]);
        cells_per_length_[k] = extent[k] > 0.0 ? cells[k] / extent[k] : 0.0;
      }
    }
  }
  origin_ = region.is_empty() ? Vec3::Zero() : region.min;

  // Two passes, compressed rows: count the boxes per cell, prefix-sum, then fill.
  cell_start_.assign(static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2] + 1, 0);
  auto for_each_cell = [&](const Aabb& box, auto&& f) {
    const std::array<int, 3> lo = cell_of(box.min), hi = cell_of(box.max);
    for (int i = lo[0]; i <= hi[0]; ++i) {
      for (int j = lo[1]; j <= hi[1]; ++j) {
        for (int k = lo[2]; k <= hi[2]; ++k) {
          f(index_of({i, j, k}));
        }
      }
    }
  };
  for (int b : stored) {
    for_each_cell(boxes[b], [&](int cell) { ++cell_start_[cell + 1]; });
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) {
    cell_start_[c] += cell_start_[c - 1];
  }
  entries_.resize(cell_start_.back());
  std::vector<int> fill(cell_start_.begin(), cell_start_.end() - 1);
  for (int b : stored) {
    for_each_cell(boxes[b], [&](int cell) { entries_[fill[cell]++] = b; });
  }
}

std::array<int, 3> UniformGrid::cell_of(const Vec3& x) const {
  std::array<int, 3> c{};
  for (int k = 0; k < 3; ++k) {
    // Clamp in floating point before the cast, so that ±∞ (an empty box) and far points are safe;
    // fmin/fmax return the other argument for a NaN (∞·0 along a flat axis), giving cell 0.
    const double t = std::floor((x[k] - origin_[k]) * cells_per_length_[k]);
    c[k] = static_cast<int>(std::fmax(0.0, std::fmin(t, static_cast<double>(dims_[k] - 1))));
  }
  return c;
}

}  // namespace affix
