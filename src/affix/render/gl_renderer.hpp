#pragma once
// The one place that talks to OpenGL: an OSMesa context (Mesa's software rasteriser drawing into
// memory — no display, no GPU, no X) and the fixed-function drawing of one picture:
//   1. backdrop colour; 2. the ground's checkerboard (unlit, faded); 3. planar shadows: every body
//   triangle flattened onto the ground along the key light (lighting.hpp), blended dark once per pixel
//   (the stencil buffer stops overlapping triangles from darkening twice); 4. the bodies, lit by the two
//   lights and the ambient term with per-corner normals (draw_mesh.hpp).
// Drawn at `supersample`× the size and averaged down (image.hpp).
#include <memory>
#include <vector>

#include "affix/render/camera.hpp"
#include "affix/render/image.hpp"
#include "affix/render/render_scene.hpp"
#include "affix/render/render_style.hpp"
#include "affix/model/body_state.hpp"

namespace affix {

class OffscreenRenderer {
 public:
  /// Pictures of width × height pixels. Throws std::runtime_error when OSMesa cannot make a context.
  OffscreenRenderer(int width, int height, int supersample);
  ~OffscreenRenderer();
  OffscreenRenderer(const OffscreenRenderer&) = delete;
  OffscreenRenderer& operator=(const OffscreenRenderer&) = delete;

  /// One picture of `scene` with the bodies at `poses` (scene order), seen by `camera`.
  Image render(const RenderScene& scene, const std::vector<BodyPose>& poses, const Camera& camera,
               const RenderStyle& style);

  int width() const { return width_; }
  int height() const { return height_; }

 private:
  struct Context;
  int width_;
  int height_;
  int supersample_;
  std::unique_ptr<Context> context_;
  std::vector<float> positions_;  // scratch: posed corners of all bodies
  std::vector<float> normals_;
  std::vector<float> shadow_;
};

}  // namespace affix
