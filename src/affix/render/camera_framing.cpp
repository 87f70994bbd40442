#include "affix/render/camera_framing.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace affix {

namespace {

/// With the camera at target − D·f, a point at v = x − target has eye coordinates (v·r, v·u) and depth
/// D + v·f, and stays within the fraction (1 − 2·margin) of the picture when |v·r| ≤ t_x·(D + v·f) and
/// |v·u| ≤ t_y·(D + v·f), t_y = (1 − 2·margin)·tan(φ/2), t_x = aspect·t_y. Hence the smallest distance
///   D = max over points of max(|v·r|/t_x, |v·u|/t_y, min_depth) − v·f,
/// where min_depth > 0 keeps every point in front of the camera even for a flat set seen edge-on.
double fitting_distance(const std::vector<Vec3>& points, const Vec3& target, const Mat3& axes, double t_x,
                        double t_y, double min_depth) {
  double distance = 0.0;
  for (const Vec3& x : points) {
    const Vec3 v = x - target;
    const double needed = std::max({std::abs(v.dot(axes.col(0))) / t_x, std::abs(v.dot(axes.col(1))) / t_y, min_depth});
    distance = std::max(distance, needed - v.dot(axes.col(2)));
  }
  return distance;
}

}  // namespace

Camera frame_points(const std::vector<Vec3>& points_in, double aspect, double fov_deg, double margin,
                    const ViewDirection& direction) {
  const std::vector<Vec3> unit_cube = {Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5)};
  const std::vector<Vec3>& points = points_in.empty() ? unit_cube : points_in;
  const Aabb box = aabb_of(points);
  const double azimuth = direction.azimuth_deg * std::numbers::pi / 180.0;
  const double elevation = direction.elevation_deg * std::numbers::pi / 180.0;
  const Vec3 towards_camera(std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth),
                            std::sin(elevation));
  // A tiny size floor keeps a single point from putting the camera on it.
  const double size = std::max(box.diagonal().norm(), 1e-6);
  const double t_y = (1.0 - 2.0 * margin) * std::tan(fov_deg * std::numbers::pi / 360.0);
  const double t_x = aspect * t_y;

  Camera camera;
  camera.fov_deg = fov_deg;
  camera.target = box.center();
  camera.position = camera.target + size * towards_camera;
  const Mat3 axes = camera_axes(camera);  // depends on the direction only, not on the distance
  // Perspective draws near parts larger, so the picture is off-centre around the box's centre. Slide
  // the target across the view until the picture's extremes balance (a few fixed-point steps suffice);
  // whatever the target, the distance is refitted, so containment always holds.
  for (int iteration = 0; iteration < 6; ++iteration) {
    const double distance = fitting_distance(points, camera.target, axes, t_x, t_y, 0.05 * size);
    Vec2 lo = Vec2::Constant(1e300), hi = Vec2::Constant(-1e300);
    for (const Vec3& x : points) {
      const Vec3 v = x - camera.target;
      const Vec2 tangent = Vec2(v.dot(axes.col(0)), v.dot(axes.col(1))) / (distance + v.dot(axes.col(2)));
      lo = lo.cwiseMin(tangent);
      hi = hi.cwiseMax(tangent);
    }
    // Moving the target by δ across the view moves every picture point by about −δ/distance.
    const Vec2 middle = 0.5 * (lo + hi);
    camera.target += distance * (middle.x() * axes.col(0) + middle.y() * axes.col(1));
  }
  const double distance = fitting_distance(points, camera.target, axes, t_x, t_y, 0.05 * size);
  camera.position = camera.target - distance * axes.col(2);
  return camera;
}

Camera frame_box(const Aabb& box, double aspect, double fov_deg, double margin, const ViewDirection& direction) {
  std::vector<Vec3> corners;
  if (!box.is_empty()) {
    for (int k = 0; k < 8; ++k)
      corners.emplace_back(k & 1 ? box.max.x() : box.min.x(), k & 2 ? box.max.y() : box.min.y(),
                           k & 4 ? box.max.z() : box.min.z());
  }
  return frame_points(corners, aspect, fov_deg, margin, direction);
}

}  // namespace affix
