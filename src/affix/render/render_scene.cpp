#include "affix/render/render_scene.hpp"

#include "affix/render/palette.hpp"

namespace affix {

RenderScene make_render_scene(const SceneMeshes& scene, const Aabb& body_bounds, const RenderStyle& style) {
  RenderScene out;
  for (std::size_t b = 0; b < scene.meshes.size(); ++b) {
    out.meshes.push_back(make_draw_mesh(scene.meshes[b]));
    out.colours.push_back(body_colour(static_cast<int>(b)));
  }
  out.bounds = body_bounds;
  // The ground is drawn when it is there to draw or to catch shadows.
  if (scene.ground_height && (style.ground || style.shadows)) {
    out.ground = make_ground_grid(*scene.ground_height, body_bounds, style.background);
    const GroundGrid& g = *out.ground;
    out.bounds.extend(Vec3(g.centre.x() - g.radius, g.centre.y() - g.radius, g.height));
    out.bounds.extend(Vec3(g.centre.x() + g.radius, g.centre.y() + g.radius, g.height));
  }
  // Nothing to frame (every pose of the run not drawable, no ground): the clip planes still need a box,
  // and the automatic camera looks at the unit cube (camera_framing.hpp).
  if (out.bounds.is_empty()) out.bounds = Aabb{Vec3::Constant(-0.5), Vec3::Constant(0.5)};
  return out;
}

}  // namespace affix
