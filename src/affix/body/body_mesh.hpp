#pragma once
// The rest-frame surface of a scene shape: a primitive meshed at its resolution, or an OBJ file.
#include <filesystem>
#include <string>

#include "affix/geometry/triangle_mesh.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// Meshes `shape` and checks that the result is a valid solid. `scene_file` names the file in errors,
/// `json_path` is the shape's path (`bodies[2].shape`). Throws InputError.
TriangleMesh body_mesh(const Shape& shape, const std::filesystem::path& scene_file,
                       const std::string& json_path);

}  // namespace affix
