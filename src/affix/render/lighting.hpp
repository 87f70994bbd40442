#pragma once
// Two directional lights and an ambient term, placed relative to the camera so that any view is lit
// from the front: a key light from above, behind the viewer's left shoulder (it also casts the
// shadows, which therefore fall to the right and away from the viewer), and a weaker fill from the right.
#include "affix/render/camera.hpp"

namespace affix {

struct Lights {
  Vec3 key;              ///< unit vector towards the key light
  Vec3 fill;             ///< unit vector towards the fill light
  double key_intensity = 0.75;
  double fill_intensity = 0.30;
  double ambient = 0.30;
};

/// With h = the camera's forward direction flattened onto the ground (or its up axis when looking
/// straight down) and r = its right: key ∝ −0.5·r − 0.4·h + Z (about 55° up), fill ∝ 0.8·r − 0.3·h + 0.4·Z.
Lights camera_lights(const Camera& camera);

/// Where a point x falls on the plane z = height along the key light: x − L·(x_z − height)/L_z, L the
/// direction towards the light (L_z > 0). The planar projection shadow draws each triangle so moved.
Vec3 shadow_point(const Vec3& x, const Vec3& towards_light, double height);

}  // namespace affix
