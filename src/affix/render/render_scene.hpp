#pragma once
// What stays the same from picture to picture of one run: the bodies' drawable meshes and colours, the
// ground, and a box around everything that may be drawn (the clip planes are fitted to it).
#include <optional>
#include <vector>

#include "affix/geometry/aabb.hpp"
#include "affix/io/scene_meshes.hpp"
#include "affix/render/draw_mesh.hpp"
#include "affix/render/ground_grid.hpp"
#include "affix/render/render_style.hpp"

namespace affix {

struct RenderScene {
  std::vector<DrawMesh> meshes;    ///< one per body, scene order
  std::vector<Vec3> colours;       ///< one per body (palette.hpp)
  std::optional<GroundGrid> ground;  ///< absent: the run has no ground, or the style leaves it out
  Aabb bounds;                     ///< the bodies over the whole run, and the ground's disk
};

/// `body_bounds`: the bodies' box over the whole run (recording_bounds).
RenderScene make_render_scene(const SceneMeshes& scene, const Aabb& body_bounds, const RenderStyle& style);

}  // namespace affix
