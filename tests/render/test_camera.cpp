// The pinhole camera's conventions (right is right, up is up, the target at the centre) and automatic
// framing: every body over the whole run inside the picture, and filling a good part of it.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "affix/geometry/primitives.hpp"
#include "affix/render/camera.hpp"
#include "affix/render/camera_framing.hpp"
#include "affix/render/recording.hpp"

namespace affix {
namespace {

TEST(Camera, TargetLandsAtTheCentreAndAxesAreNotMirrored) {
  Camera camera;
  camera.position = Vec3(0, -5, 0);  // looking along +Y: +X is to the right, +Z up
  camera.target = Vec3::Zero();
  const Vec2 centre = project_to_pixel(camera, 200, 100, Vec3::Zero());
  EXPECT_NEAR(centre.x(), 100.0, 1e-9);
  EXPECT_NEAR(centre.y(), 50.0, 1e-9);
  EXPECT_GT(project_to_pixel(camera, 200, 100, Vec3(0.5, 0, 0)).x(), 100.0);
  EXPECT_LT(project_to_pixel(camera, 200, 100, Vec3(0, 0, 0.5)).y(), 50.0);  // image rows grow downwards
}

TEST(Camera, VerticalFieldOfViewSpansTheHeight) {
  // A point at angle φ/2 above the axis lands on the top edge: y = 0.
  Camera camera;
  camera.position = Vec3(0, -2, 0);
  camera.target = Vec3::Zero();
  camera.fov_deg = 50;
  const double z = 2.0 * std::tan(25.0 * std::numbers::pi / 180.0);
  EXPECT_NEAR(project_to_pixel(camera, 320, 240, Vec3(0, 0, z)).y(), 0.0, 1e-9);
  // Horizontally the half-width is aspect times larger.
  EXPECT_NEAR(project_to_pixel(camera, 320, 240, Vec3(z * 320.0 / 240.0, 0, 0)).x(), 320.0, 1e-9);
}

TEST(Camera, PointsBehindTheCameraHaveNoPixel) {
  Camera camera;
  camera.position = Vec3(0, -5, 0);
  camera.target = Vec3::Zero();
  EXPECT_TRUE(project_to_pixel(camera, 100, 100, Vec3(0, -6, 0)).hasNaN());
}

TEST(Camera, LookingStraightDownKeepsXToTheRight) {
  Camera camera;
  camera.position = Vec3(0, 0, 5);
  camera.target = Vec3::Zero();
  EXPECT_GT(project_to_pixel(camera, 100, 100, Vec3(1, 0, 0)).x(), 50.0);
}

/// Bodies that move about over four frames: a box flying up and turning, a sphere rolling away, a
/// capsule falling over.
Recording moving_bodies() {
  Recording r;
  r.scene.names = {"box", "ball", "capsule"};
  r.scene.meshes = {make_box(Vec3(0.5, 0.3, 0.2)), make_sphere(0.3, 16), make_capsule(0.1, 0.8, 12)};
  for (int k = 0; k < 4; ++k) {
    TrajectoryFrame frame{k, 0.1 * k, {}};
    const double angle = 0.6 * k;
    frame.poses.push_back({Vec3(0, 0, 0.5 + 0.8 * k), Eigen::AngleAxisd(angle, Vec3(1, 1, 0).normalized()).matrix()});
    frame.poses.push_back({Vec3(1.0 + 0.7 * k, 0.5, 0.3), Eigen::AngleAxisd(angle, Vec3::UnitY()).matrix()});
    frame.poses.push_back({Vec3(-1, -0.5, 0.5), Eigen::AngleAxisd(0.5 * angle, Vec3::UnitX()).matrix()});
    r.frames.push_back(frame);
  }
  return r;
}

TEST(CameraFraming, EveryBodyOfEveryFrameIsInsideThePicture) {
  const Recording run = moving_bodies();
  const std::vector<Vec3> points = framing_points(run);
  for (const auto& [width, height] : {std::pair{960, 540}, std::pair{400, 400}, std::pair{300, 600}}) {
    for (const double fov : {20.0, 35.0, 70.0}) {
      const Camera camera = frame_points(points, static_cast<double>(width) / height, fov);
      Vec2 lo = Vec2::Constant(1e300), hi = Vec2::Constant(-1e300);
      for (const TrajectoryFrame& frame : run.frames) {
        for (std::size_t b = 0; b < frame.poses.size(); ++b) {
          // The body's projected bounding rectangle: over its projected vertices.
          Vec2 body_lo = Vec2::Constant(1e300), body_hi = Vec2::Constant(-1e300);
          for (const Vec3& rest : run.scene.meshes[b].vertices) {
            const Vec2 pixel = project_to_pixel(camera, width, height, world_point(frame.poses[b], rest));
            ASSERT_FALSE(pixel.hasNaN());
            body_lo = body_lo.cwiseMin(pixel);
            body_hi = body_hi.cwiseMax(pixel);
          }
          EXPECT_GE(body_lo.minCoeff(), 0.0) << run.scene.names[b] << " frame " << frame.index;
          EXPECT_LE(body_hi.x(), width) << run.scene.names[b] << " frame " << frame.index;
          EXPECT_LE(body_hi.y(), height) << run.scene.names[b] << " frame " << frame.index;
          lo = lo.cwiseMin(body_lo);
          hi = hi.cwiseMax(body_hi);
        }
      }
      // Not merely inside: framed. The scene spans the picture but for the margins (6 % a side) in one
      // direction at least…
      const Vec2 span = (hi - lo).cwiseQuotient(Vec2(width, height));
      EXPECT_GT(span.maxCoeff(), 0.85) << width << "x" << height << " fov " << fov;
      // …and sits in the middle: the margins on either side agree within 2 % of the size.
      EXPECT_NEAR(lo.x(), width - hi.x(), 0.02 * width) << width << "x" << height << " fov " << fov;
      EXPECT_NEAR(lo.y(), height - hi.y(), 0.02 * height) << width << "x" << height << " fov " << fov;
    }
  }
}

TEST(CameraFraming, OverBudgetTheMappedRestBoxesStillHoldEveryVertex) {
  // Budget 0 forces the cheap points: eight per body and pose. Framing on them keeps every vertex in.
  const Recording run = moving_bodies();
  const std::vector<Vec3> points = framing_points(run, 0);
  EXPECT_EQ(points.size(), 8u * 3u * 4u);
  const Camera camera = frame_points(points, 1.5, 35.0);
  for (const TrajectoryFrame& frame : run.frames) {
    for (std::size_t b = 0; b < frame.poses.size(); ++b) {
      for (const Vec3& rest : run.scene.meshes[b].vertices) {
        const Vec2 pixel = project_to_pixel(camera, 300, 200, world_point(frame.poses[b], rest));
        EXPECT_TRUE(pixel.x() >= 0 && pixel.x() <= 300 && pixel.y() >= 0 && pixel.y() <= 200) << pixel.transpose();
      }
    }
  }
}

TEST(CameraFraming, ABodyAtRestCountsOnce) {
  Recording run = moving_bodies();
  for (TrajectoryFrame& frame : run.frames) frame.poses[2] = run.frames[0].poses[2];  // the capsule stays
  const std::size_t moving = 4 * (run.scene.meshes[0].vertices.size() + run.scene.meshes[1].vertices.size());
  EXPECT_EQ(framing_points(run).size(), moving + run.scene.meshes[2].vertices.size());
}

TEST(CameraFraming, ABoxStaysInsideThePicture) {
  Aabb box;
  box.extend(Vec3(-3, 1, 0));
  box.extend(Vec3(2, 1.5, 4));
  const Camera camera = frame_box(box, 2.0, 30.0);
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner(k & 1 ? box.max.x() : box.min.x(), k & 2 ? box.max.y() : box.min.y(),
                      k & 4 ? box.max.z() : box.min.z());
    const Vec2 pixel = project_to_pixel(camera, 200, 100, corner);
    EXPECT_TRUE(pixel.x() >= 0 && pixel.x() <= 200 && pixel.y() >= 0 && pixel.y() <= 100) << pixel.transpose();
  }
}

TEST(CameraFraming, LooksDownFromAboveAtAThreeQuarterAngle) {
  Aabb box;
  box.extend(Vec3(-1, -1, 0));
  box.extend(Vec3(1, 1, 1));
  const Camera camera = frame_box(box, 16.0 / 9.0, 35.0);
  const Vec3 view = (camera.target - camera.position).normalized();
  EXPECT_LT(view.z(), -0.2);  // from above
  EXPECT_GT(std::abs(view.x()), 0.2);  // neither straight along an axis…
  EXPECT_GT(std::abs(view.y()), 0.2);  // …nor from the side
}

TEST(CameraFraming, AnEmptyBoxStillGivesAUsableCamera) {
  const Camera camera = frame_box(Aabb{}, 1.0, 35.0);
  EXPECT_TRUE(camera.position.allFinite());
  EXPECT_GT((camera.position - camera.target).norm(), 0.0);
}

}  // namespace
}  // namespace affix
