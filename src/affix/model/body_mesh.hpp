#pragma once
// The rest-frame surface of a scene shape: a primitive meshed at its resolution, or an OBJ file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// The most triangles the meshes of one scene may have together. Each triangle costs the solvers some
/// hundred bytes (mesh, contact candidates, BVH), so this is already several gigabytes; it admits a
/// 10⁶-body chain of 12-triangle boxes (1.2·10⁷) and refuses a handful of boxes at resolution 1000
/// (1.2·10⁷ each).
inline constexpr std::int64_t kMaxSceneTriangles = 50'000'000;

/// The triangles a primitive shape will have, from its formula (nothing is meshed); nullopt for a
/// mesh file, whose count is known only once it is read.
std::optional<std::int64_t> primitive_triangle_count(const Shape& shape);

/// Meshes `shape` and checks that the result is a valid solid. `scene_file` names the file in errors,
/// `json_path` is the shape's path (`bodies[2].shape`). Throws InputError.
TriangleMesh body_mesh(const Shape& shape, const std::filesystem::path& scene_file,
                       const std::string& json_path);

}  // namespace affix
