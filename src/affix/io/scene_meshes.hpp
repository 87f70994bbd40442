#pragma once
// `meshes.json` beside a run's output: each body's surface in its rest frame, and the ground — what a
// viewer or renderer needs to draw trajectory.csv (a body's rest point x̄ is at A·x̄ + p). It is an
// extra file, not part of the DESIGN §4 contract. `affix run` writes version 2, each distinct mesh once:
//   {"version": 2, "ground": {"height": h} | null,
//    "meshes": [{"vertices": [x0, y0, z0, x1, ...], "triangles": [i0, j0, k0, ...]}],
//    "bodies": [{"name": "...", "mesh": k}]}          k: an index into "meshes"
// and the reader also takes version 1 (earlier runs), a mesh per body:
//   {"version": 1, "ground": ..., "bodies": [{"name": "...", "vertices": [...], "triangles": [...]}]}
// `affix view` and `affix render` both read it through read_scene_meshes, which treats it as untrusted
// input (scene_meshes_reader.cpp): whatever it returns can be drawn without further checks.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "affix/model/model.hpp"
#include "affix/geometry/triangle_mesh.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

struct SceneMeshes {
  std::optional<double> ground_height;
  std::vector<std::string> names;
  std::vector<TriangleMesh> meshes;  ///< rest frame, in scene order
};

/// Writes meshes.json (the format above). Throws OutputError, naming the file and why, when it fails.
void write_scene_meshes(const std::filesystem::path& file, const Model& model);

/// Limits of what read_scene_meshes accepts: far beyond any scene affix runs, and small enough that
/// every index and count fits an int and drawing the meshes fits in memory.
inline constexpr std::size_t kMaxMeshesFileBytes = std::size_t{1} << 30;
inline constexpr std::size_t kMaxMeshVertices = 20'000'000;   ///< over all bodies
inline constexpr std::size_t kMaxMeshTriangles = 20'000'000;  ///< over all bodies
inline constexpr double kMaxMeshCoordinate = 1e12;            ///< |vertex coordinate|, |ground height| (m)

/// Reads and validates `file`: version 1 or 2; the ground null or {"height": finite}; a non-empty array
/// of bodies, each with a unique non-empty name and a mesh (version 2: the index of one of a non-empty
/// array of meshes) — a non-empty vertex array of finite numbers whose length is a multiple of 3, and a
/// non-empty triangle array of whole numbers whose length is a multiple of 3, every one a vertex index
/// in [0, vertex count); unknown fields refused; the limits above, over every body's copy. Throws
/// InputError naming the file and the JSON path (`bodies[2].triangles[7]`, `meshes[0].vertices[4]`) and
/// what was expected. The meshes come back one per body, in body order.
SceneMeshes read_scene_meshes(const std::filesystem::path& file);

}  // namespace affix
