#pragma once
// The automatic camera: a pleasant elevated three-quarter view (Z up) that keeps a whole box — every
// body over the whole run — in the picture, with a margin.
#include <vector>

#include "affix/geometry/aabb.hpp"
#include "affix/render/camera.hpp"

namespace affix {

struct ViewDirection {
  double azimuth_deg = -60.0;   ///< where the camera stands, around +Z from +X: in front (−Y), to the right
  double elevation_deg = 25.0;  ///< above the horizon
};

/// A camera looking along `direction` whose picture (width/height = aspect, vertical field of view
/// fov_deg) holds every one of `points` — hence their convex hull: whole bodies when the points are
/// their vertices — within the inner (1 − 2·margin) of each side, as close as that allows, the points'
/// picture centred. No points: the unit cube around the origin is framed.
Camera frame_points(const std::vector<Vec3>& points, double aspect, double fov_deg, double margin = 0.06,
                    const ViewDirection& direction = {});

/// frame_points of the box's eight corners: everything inside the box stays in the picture.
Camera frame_box(const Aabb& box, double aspect, double fov_deg, double margin = 0.06,
                 const ViewDirection& direction = {});

}  // namespace affix
