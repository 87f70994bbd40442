#pragma once
// A pinhole camera and the two matrices OpenGL draws with, so that the renderer and anything that
// asks "where does this point land in the picture" (tests, framing) share one piece of math.
//
// Eye frame (OpenGL's convention): forward f = (target − position)/‖·‖, right r = f × up/‖·‖,
// true up u = r × f; the camera looks down −z_eye. With a vertical field of view φ, an aspect ratio
// a = width/height and s = 1/tan(φ/2), a point at eye coordinates (x, y, z), z < 0, lands at
//   ndc = (s·x/(a·(−z)), s·y/(−z))  ∈ [−1, 1]²  when visible,
//   pixel = ((ndc_x + 1)/2 · width, (1 − ndc_y)/2 · height)   (origin top left, y down, pixel i covers [i, i+1)).
#include <Eigen/Core>

#include "affix/math/types.hpp"

namespace affix {

using Mat4 = Eigen::Matrix4d;

struct Camera {
  Vec3 position = Vec3(4, -6, 3);
  Vec3 target = Vec3::Zero();
  double fov_deg = 35.0;  ///< vertical field of view
  Vec3 up = Vec3::UnitZ();  ///< world up (Z, DESIGN §2); replaced by +Y when looking straight along it
};

/// The orthonormal eye frame: columns right, true up, forward.
Mat3 camera_axes(const Camera& camera);

/// World → eye: rows right, up, −forward, then the translation that takes the position to the origin.
Mat4 view_matrix(const Camera& camera);

/// OpenGL's perspective projection (glFrustum's matrix for a symmetric frustum), 0 < near < far.
Mat4 projection_matrix(double fov_deg, double aspect, double near, double far);

/// The pixel a world point lands on (see the header comment); its components are NaN when the point is
/// behind the camera or in its plane.
Vec2 project_to_pixel(const Camera& camera, int width, int height, const Vec3& point);

}  // namespace affix
