#pragma once
// The rest-frame surface of a scene shape: a primitive meshed at its resolution, or an OBJ file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// The most triangles the bodies of one scene may have together, each body counting its shape's
/// triangles (a shape shared by many bodies counts once per body). The model holds one mesh per distinct
/// shape, but a solver that places every body's surface in the world (contact candidates, BVH) pays
/// some hundred bytes per placed triangle, so this bounds that work at tens of gigabytes. It admits the
/// 10⁶-link chain of 144-triangle capsules (1.44·10⁸) and refuses 17 boxes at resolution 1000
/// (1.2·10⁷ each).
inline constexpr std::int64_t kMaxSceneTriangles = 200'000'000;

/// The triangles a primitive shape will have, from its formula (nothing is meshed); nullopt for a
/// mesh file, whose count is known only once it is read.
std::optional<std::int64_t> primitive_triangle_count(const Shape& shape);

/// Meshes `shape` and checks that the result is a valid solid. `scene_file` names the file in errors,
/// `json_path` is the shape's path (`bodies[2].shape`). Throws InputError.
TriangleMesh body_mesh(const Shape& shape, const std::filesystem::path& scene_file,
                       const std::string& json_path);

}  // namespace affix
