#include "affix/render/camera.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace affix {

Mat3 camera_axes(const Camera& camera) {
  const Vec3 forward = (camera.target - camera.position).normalized();
  Vec3 up = camera.up.normalized();
  // Looking (almost) straight along `up` leaves right = forward × up undefined: use +Y as up instead,
  // which keeps +X to the right when looking straight down.
  if (forward.cross(up).norm() < 1e-6) up = Vec3::UnitY();
  const Vec3 right = forward.cross(up).normalized();
  Mat3 axes;
  axes.col(0) = right;
  axes.col(1) = right.cross(forward);
  axes.col(2) = forward;
  return axes;
}

Mat4 view_matrix(const Camera& camera) {
  const Mat3 axes = camera_axes(camera);
  Mat3 rotation;
  rotation.row(0) = axes.col(0).transpose();
  rotation.row(1) = axes.col(1).transpose();
  rotation.row(2) = -axes.col(2).transpose();
  Mat4 view = Mat4::Identity();
  view.topLeftCorner<3, 3>() = rotation;
  view.topRightCorner<3, 1>() = -rotation * camera.position;
  return view;
}

Mat4 projection_matrix(double fov_deg, double aspect, double near, double far) {
  const double s = 1.0 / std::tan(fov_deg * std::numbers::pi / 360.0);
  Mat4 p = Mat4::Zero();
  p(0, 0) = s / aspect;
  p(1, 1) = s;
  // Depth: z_eye = −near ↦ −1 and z_eye = −far ↦ +1 after the division by w = −z_eye.
  p(2, 2) = (far + near) / (near - far);
  p(2, 3) = 2.0 * far * near / (near - far);
  p(3, 2) = -1.0;
  return p;
}

Vec2 project_to_pixel(const Camera& camera, int width, int height, const Vec3& point) {
  // The very matrices the renderer loads, so a test of this function tests what GL is told. The pixel's
  // x and y do not depend on the clip planes; any 0 < near < far will do.
  const double aspect = static_cast<double>(width) / height;
  const Eigen::Vector4d clip =
      projection_matrix(camera.fov_deg, aspect, 1.0, 2.0) * view_matrix(camera) * point.homogeneous();
  if (!(clip.w() > 0)) return Vec2::Constant(std::numeric_limits<double>::quiet_NaN());  // w = −z_eye
  const double ndc_x = clip.x() / clip.w();
  const double ndc_y = clip.y() / clip.w();
  return {(ndc_x + 1.0) / 2.0 * width, (1.0 - ndc_y) / 2.0 * height};
}

}  // namespace affix
