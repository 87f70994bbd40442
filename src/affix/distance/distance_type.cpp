#include "affix/distance/distance_type.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "affix/distance/point_edge.hpp"

namespace affix {
namespace {

/// The nearest of a few candidate feature pairs; the first wins a tie.
template <typename Type>
struct Nearest {
  Type type{};
  double distance = std::numeric_limits<double>::infinity();
  void offer(Type candidate, double candidate_distance) {
    if (candidate_distance < distance) {
      type = candidate;
      distance = candidate_distance;
    }
  }
};

/// Offers the closest feature of edge (e0, e1) to p, naming it with `names` = {e0, e1, interior}.
template <typename Type>
void offer_point_edge(Nearest<Type>& nearest, const Vec3& p, const Vec3& e0, const Vec3& e1,
                      const std::array<Type, 3>& names) {
  const PointEdgeDistanceType type = point_edge_distance_type(p, e0, e1);
  nearest.offer(names[static_cast<int>(type)], point_edge_distance(p, e0, e1, type));
}

}  // namespace

PointEdgeDistanceType point_edge_distance_type(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 e = e1 - e0;
  const double length2 = e.squaredNorm();
  if (length2 == 0.0) return PointEdgeDistanceType::P_E0;  // degenerate edge: both ends coincide
  const double t = e.dot(p - e0) / length2;
  if (t < 0.0) return PointEdgeDistanceType::P_E0;
  if (t > 1.0) return PointEdgeDistanceType::P_E1;
  return PointEdgeDistanceType::P_E;
}

PointTriangleDistanceType point_triangle_distance_type(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                       const Vec3& t2) {
  using T = PointTriangleDistanceType;
  const Vec3 n = (t1 - t0).cross(t2 - t0);
  const double longest2 =
      std::max({(t1 - t0).squaredNorm(), (t2 - t1).squaredNorm(), (t0 - t2).squaredNorm()});
  if (n.squaredNorm() > kDegenerateTriangle * longest2 * longest2) {
    const auto inner_side = [&](const Vec3& ti, const Vec3& tj) { return (tj - ti).cross(p - ti).dot(n) >= 0.0; };
    if (inner_side(t0, t1) && inner_side(t1, t2) && inner_side(t2, t0)) return T::P_T;
  }
  // Outside the prism over the triangle (or a degenerate triangle): the nearest boundary feature.
  Nearest<T> nearest;
  offer_point_edge<T>(nearest, p, t0, t1, {T::P_T0, T::P_T1, T::P_E0});
  offer_point_edge<T>(nearest, p, t1, t2, {T::P_T1, T::P_T2, T::P_E1});
  offer_point_edge<T>(nearest, p, t2, t0, {T::P_T2, T::P_T0, T::P_E2});
  return nearest.type;
}

EdgeEdgeDistanceType edge_edge_distance_type(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                             const Vec3& eb1) {
  using T = EdgeEdgeDistanceType;
  const Vec3 a = ea1 - ea0, b = eb1 - eb0, w = eb0 - ea0;
  const Vec3 n = a.cross(b);
  const double n2 = n.squaredNorm();
  if (n2 > kParallelEdges * a.squaredNorm() * b.squaredNorm()) {
    const double s = w.cross(b).dot(n) / n2;
    const double t = w.cross(a).dot(n) / n2;
    if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) return T::EA_EB;
  }
  // The minimum over the parameter square lies on its boundary: one edge's end point against the other.
  Nearest<T> nearest;
  offer_point_edge<T>(nearest, ea0, eb0, eb1, {T::EA0_EB0, T::EA0_EB1, T::EA0_EB});
  offer_point_edge<T>(nearest, ea1, eb0, eb1, {T::EA1_EB0, T::EA1_EB1, T::EA1_EB});
  offer_point_edge<T>(nearest, eb0, ea0, ea1, {T::EA0_EB0, T::EA1_EB0, T::EA_EB0});
  offer_point_edge<T>(nearest, eb1, ea0, ea1, {T::EA0_EB1, T::EA1_EB1, T::EA_EB1});
  return nearest.type;
}

const char* to_string(PointEdgeDistanceType type) {
  static constexpr std::array<const char*, 3> kNames{"P_E0", "P_E1", "P_E"};
  return kNames[static_cast<int>(type)];
}

const char* to_string(PointTriangleDistanceType type) {
  static constexpr std::array<const char*, 7> kNames{"P_T0", "P_T1", "P_T2", "P_E0", "P_E1", "P_E2", "P_T"};
  return kNames[static_cast<int>(type)];
}

const char* to_string(EdgeEdgeDistanceType type) {
  static constexpr std::array<const char*, 9> kNames{"EA0_EB0", "EA0_EB1", "EA1_EB0", "EA1_EB1", "EA_EB0",
                                                     "EA_EB1",  "EA0_EB", "EA1_EB",  "EA_EB"};
  return kNames[static_cast<int>(type)];
}

}  // namespace affix
