// The renderer draws what the camera math says: a box at a known pose, seen by a camera given
// explicitly on a white backdrop (no ground, no shadow), covers exactly the pixels inside the convex
// hull of its eight projected corners. An axis-aligned box checks placement, a turned one orientation.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "affix/geometry/primitives.hpp"
#include "affix/render/gl_renderer.hpp"
#include "affix/render/palette.hpp"
#include "affix/render/render_scene.hpp"

namespace affix {
namespace {

double cross(const Vec2& o, const Vec2& a, const Vec2& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

/// Andrew's monotone chain: the hull's corners, counter-clockwise in (x, y).
std::vector<Vec2> convex_hull(std::vector<Vec2> points) {
  std::sort(points.begin(), points.end(),
            [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  std::vector<Vec2> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {  // lower chain
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, t = k + 1; i-- > 0;) {  // upper chain
    while (k >= t && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return hull;
}

/// Signed distance from q to the hull's boundary: positive inside, negative outside (exact inside;
/// outside it is the largest edge-line distance, a lower bound of the true distance — enough here).
double signed_distance(const std::vector<Vec2>& hull, const Vec2& q) {
  double inside = 1e300;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Vec2& a = hull[i];
    const Vec2& b = hull[(i + 1) % hull.size()];
    inside = std::min(inside, cross(a, b, q) / (b - a).norm());
  }
  return inside;
}

struct Coverage {
  int inside_checked = 0;
  int outside_checked = 0;
};

/// Renders a box of `size` at `pose` and checks every pixel whose centre is more than `margin` pixels
/// inside the projected hull (box-coloured: clearly not white, reddish like palette colour 0) or outside
/// it (pure white). Pixels near the outline are left alone: they are anti-aliased.
Coverage check_box(const Vec3& size, const BodyPose& pose, const Camera& camera, int width, int height) {
  SceneMeshes meshes;
  meshes.names = {"box"};
  meshes.meshes = {make_box(size)};
  RenderStyle style;
  style.background = Vec3::Ones();
  style.ground = false;
  style.shadows = false;
  Aabb bounds;
  std::vector<Vec2> corners;
  for (int k = 0; k < 8; ++k) {
    const Vec3 rest(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5);
    const Vec3 x = pose.A * rest.cwiseProduct(size) + pose.p;
    bounds.extend(x);
    corners.push_back(project_to_pixel(camera, width, height, x));
  }
  const RenderScene scene = make_render_scene(meshes, bounds, style);
  OffscreenRenderer renderer(width, height, 2);
  const Image image = renderer.render(scene, {pose}, camera, style);
  EXPECT_EQ(image.width, width);
  EXPECT_EQ(image.height, height);

  const std::vector<Vec2> hull = convex_hull(corners);
  const Vec3 colour = body_colour(0);
  EXPECT_GT(colour.x(), colour.z() + 0.3);  // the check below relies on colour 0 being red over blue
  Coverage coverage;
  const double margin = 1.5;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double d = signed_distance(hull, Vec2(x + 0.5, y + 0.5));
      const std::uint8_t* p = image.pixel(x, y);
      if (d > margin) {
        ++coverage.inside_checked;
        EXPECT_TRUE(p[0] < 250 || p[1] < 230) << "pixel (" << x << ", " << y << ") inside the box is white";
        EXPECT_GT(int(p[0]), int(p[2]) + 20) << "pixel (" << x << ", " << y << ") inside is not box-coloured";
      } else if (d < -margin) {
        ++coverage.outside_checked;
        EXPECT_TRUE(p[0] == 255 && p[1] == 255 && p[2] == 255)
            << "pixel (" << x << ", " << y << ") outside the box is (" << int(p[0]) << ", " << int(p[1]) << ", "
            << int(p[2]) << ")";
      }
      if (::testing::Test::HasFailure()) return coverage;  // one bad pixel tells the story
    }
  }
  return coverage;
}

TEST(OffscreenRenderer, AxisAlignedBoxCoversItsProjectedHull) {
  Camera camera;
  camera.position = Vec3(2.5, -3.0, 2.0);
  camera.target = Vec3(0.1, 0.0, 0.2);
  camera.fov_deg = 40;
  BodyPose pose;
  pose.p = Vec3(0.3, 0.1, 0.25);
  const Coverage c = check_box(Vec3(1.0, 0.6, 0.5), pose, camera, 160, 120);
  EXPECT_GT(c.inside_checked, 800);   // the box is a good part of the picture…
  EXPECT_GT(c.outside_checked, 5000); // …and so is the backdrop
}

TEST(OffscreenRenderer, TurnedBoxCoversItsProjectedHull) {
  // A long thin box turned about an oblique axis: a mirrored or transposed orientation would put its
  // ends in other places.
  Camera camera;
  camera.position = Vec3(-1.0, -4.0, 1.5);
  camera.target = Vec3::Zero();
  camera.fov_deg = 35;
  BodyPose pose;
  pose.p = Vec3(-0.2, 0.1, 0.15);
  pose.A = Eigen::AngleAxisd(0.9, Vec3(1, 2, 3).normalized()).matrix();
  const Coverage c = check_box(Vec3(1.6, 0.3, 0.2), pose, camera, 200, 150);
  EXPECT_GT(c.inside_checked, 500);
  EXPECT_GT(c.outside_checked, 15000);
}

TEST(OffscreenRenderer, GroundAndShadowDrawUnderTheBodies) {
  // With the ground on, the picture's bottom rows show the floor (not the backdrop), and a box resting
  // on it casts a shadow: some floor pixels are clearly darker than both checker shades.
  SceneMeshes meshes;
  meshes.ground_height = 0.0;
  meshes.names = {"box"};
  meshes.meshes = {make_box(Vec3(0.5, 0.5, 0.5))};
  BodyPose pose;
  pose.p = Vec3(0, 0, 0.25);
  Aabb bounds;
  bounds.extend(Vec3(-0.25, -0.25, 0));
  bounds.extend(Vec3(0.25, 0.25, 0.5));
  const RenderStyle style;
  const RenderScene scene = make_render_scene(meshes, bounds, style);
  ASSERT_TRUE(scene.ground.has_value());
  Camera camera;
  camera.position = Vec3(1.2, -2.0, 1.2);
  camera.target = Vec3(0, 0, 0.1);
  OffscreenRenderer renderer(120, 90, 2);
  const Image image = renderer.render(scene, {pose}, camera, style);
  const std::uint8_t* bottom = image.pixel(60, 88);
  const Vec3 background = 255.0 * style.background;
  EXPECT_GT(std::abs(bottom[0] - background.x()) + std::abs(bottom[2] - background.z()), 10.0);
  int dark = 0;  // grey pixels darker than the dark checker shade (0.76 → 194) by a margin
  for (std::size_t i = 0; i < image.rgb.size(); i += 3) {
    const int r = image.rgb[i], g = image.rgb[i + 1], b = image.rgb[i + 2];
    if (r < 160 && std::abs(r - g) < 12 && std::abs(g - b) < 16) ++dark;
  }
  EXPECT_GT(dark, 30);  // the shadow covers about a hundred pixels of this small picture
}

}  // namespace
}  // namespace affix
