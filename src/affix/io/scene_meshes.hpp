#pragma once
// `meshes.json` beside a run's output: each body's surface once, in its rest frame, and the ground —
// what a viewer or renderer needs to draw trajectory.csv (a body's rest point x̄ is at A·x̄ + p).
// It is an extra file, not part of the DESIGN §4 contract:
//   {"version": 1, "ground": {"height": h} | null,
//    "bodies": [{"name": "...", "vertices": [x0, y0, z0, x1, ...], "triangles": [i0, j0, k0, ...]}]}
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "affix/body/affine_body.hpp"
#include "affix/geometry/triangle_mesh.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

struct SceneMeshes {
  std::optional<double> ground_height;
  std::vector<std::string> names;
  std::vector<TriangleMesh> meshes;  ///< rest frame, in scene order
};

void write_scene_meshes(const std::filesystem::path& file, const Scene& scene,
                        const std::vector<AffineBody>& bodies);

/// Throws InputError naming the file when it is missing or malformed.
SceneMeshes read_scene_meshes(const std::filesystem::path& file);

}  // namespace affix
