#pragma once
// How a picture looks, apart from the camera: backdrop, ground, shadows, anti-aliasing.
#include "affix/math/types.hpp"

namespace affix {

struct RenderStyle {
  Vec3 background = Vec3(0.945, 0.950, 0.965);  ///< RGB in [0, 1]; the ground fades into it far away
  bool ground = true;    ///< draw the ground plane (when the run has one)
  bool shadows = true;   ///< planar shadows of the bodies on the ground (when the run has one)
  int supersample = 2;   ///< draw at this multiple of the size, then average down (anti-aliasing)
};

}  // namespace affix
