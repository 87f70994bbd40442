#include "affix/render/lighting.hpp"

namespace affix {

Lights camera_lights(const Camera& camera) {
  const Mat3 axes = camera_axes(camera);
  const Vec3 right = axes.col(0);
  Vec3 ahead(axes.col(2).x(), axes.col(2).y(), 0.0);
  if (ahead.norm() < 1e-6) ahead = Vec3(axes.col(1).x(), axes.col(1).y(), 0.0);  // looking straight down
  ahead.normalize();
  Lights lights;
  lights.key = (-0.5 * right - 0.4 * ahead + Vec3::UnitZ()).normalized();
  lights.fill = (0.8 * right - 0.3 * ahead + 0.4 * Vec3::UnitZ()).normalized();
  return lights;
}

Vec3 shadow_point(const Vec3& x, const Vec3& towards_light, double height) {
  return x - towards_light * ((x.z() - height) / towards_light.z());
}

}  // namespace affix
