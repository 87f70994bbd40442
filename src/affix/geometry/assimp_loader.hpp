#pragma once
// Mesh files other than OBJ (STL, COLLADA/DAE, PLY, OFF, ...) through Assimp (Debian libassimp-dev),
// the library ROS and most robot tools read URDF meshes with.
#include <array>
#include <filesystem>
#include <vector>

#include "affix/math/types.hpp"

namespace affix {

/// Every triangle of every mesh in the file's node hierarchy, placed by the node transforms (a DAE's
/// `<node>` matrices and its `<unit meter>`), as raw positions (3 per triangle, not welded). A
/// COLLADA file's `up_axis` is ignored: its coordinates are used as written, as ROS tools do, so a
/// URDF's frames apply to them unchanged. Throws std::runtime_error naming the file and Assimp's
/// reason when it cannot be read or has no triangles.
std::vector<Vec3> load_assimp_triangles(const std::filesystem::path& file);

}  // namespace affix
