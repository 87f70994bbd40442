#pragma once
// Axis-aligned bounding box: the unit of the broad phase and of scene-size estimates.
#include <limits>
#include <span>

#include "affix/math/types.hpp"

namespace affix {

/// The box {x : min ≤ x ≤ max} (componentwise). A default-constructed box is empty (min = +∞,
/// max = −∞): extending it by a point gives that point, and it intersects nothing.
struct Aabb {
  Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 max = Vec3::Constant(-std::numeric_limits<double>::infinity());

  /// Grow to contain a point.
  void extend(const Vec3& point);
  /// Grow to contain another box (an empty one changes nothing).
  void extend(const Aabb& other);
  /// Grow by `margin` on every side (a negative margin shrinks; the box may become empty).
  void inflate(double margin);

  bool is_empty() const;
  /// Closed boxes: touching faces count as intersecting. False when either box is empty.
  bool intersects(const Aabb& other) const;
  /// max − min, the extent along each axis; zero for an empty box. Its norm is the diagonal's length.
  Vec3 diagonal() const;
  /// (min + max)/2; NaN for an empty box.
  Vec3 center() const;
};

/// The smallest box containing all the points (empty for no points).
Aabb aabb_of(std::span<const Vec3> points);

}  // namespace affix
