#pragma once
// The scene shape `mesh` as a triangle mesh: from a file, by extension (OBJ through the strict OBJ
// reader, every other format Assimp reads: STL, DAE, PLY, OFF, ...), or from inline vertices and
// triangles (an imported model's compiled mesh).
#include <array>
#include <filesystem>
#include <vector>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// Reads `file` in its own coordinates times `scale` (componentwise; a mirroring scale reverses the
/// faces). `.obj` goes to load_obj; anything else to load_assimp_triangles. Throws std::runtime_error with
/// a reason that names the file, std::invalid_argument for a zero or non-finite scale. Not validated:
/// see find_mesh_defect.
TriangleMesh load_mesh_file(const std::filesystem::path& file, const Vec3& scale = Vec3::Ones());

/// Inline vertices and triangles times `scale`, vertices at identical positions welded into one and
/// unused ones dropped (as the file readers do). Indices must be in range (the scene reader checks).
TriangleMesh inline_mesh(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                         const Vec3& scale = Vec3::Ones());

/// True for the extensions load_mesh_file reads through Assimp rather than the OBJ reader.
bool is_assimp_mesh(const std::filesystem::path& file);

}  // namespace affix
