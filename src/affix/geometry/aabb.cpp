#include "affix/geometry/aabb.hpp"

namespace affix {

void Aabb::extend(const Vec3& point) {
  min = min.cwiseMin(point);
  max = max.cwiseMax(point);
}

void Aabb::extend(const Aabb& other) {
  min = min.cwiseMin(other.min);
  max = max.cwiseMax(other.max);
}

void Aabb::inflate(double margin) {
  min.array() -= margin;
  max.array() += margin;
}

bool Aabb::is_empty() const {
  return (min.array() > max.array()).any();
}

bool Aabb::intersects(const Aabb& other) const {
  // Separated along some axis ⇔ disjoint; an empty box has min > max and fails the test by itself.
  return (min.array() <= other.max.array()).all() && (other.min.array() <= max.array()).all() &&
         !is_empty() && !other.is_empty();
}

Vec3 Aabb::diagonal() const {
  return is_empty() ? Vec3::Zero() : Vec3(max - min);
}

Vec3 Aabb::center() const {
  return 0.5 * (min + max);
}

Aabb aabb_of(std::span<const Vec3> points) {
  Aabb box;
  for (const Vec3& p : points) {
    box.extend(p);
  }
  return box;
}

}  // namespace affix
