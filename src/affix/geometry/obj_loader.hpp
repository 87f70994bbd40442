#pragma once
// Wavefront OBJ files as triangle meshes (scene shape `mesh`, DESIGN §3).
#include <filesystem>

#include "affix/geometry/triangle_mesh.hpp"

namespace affix {

/// Reads the faces of every object and group in an OBJ file into one mesh in file coordinates times
/// `scale` (componentwise). Polygons are triangulated. Vertices at identical positions are welded into
/// one (files often repeat them per face group), and vertices that no face uses are dropped; vertex
/// order otherwise follows the file. A mirroring scale (an odd number of negative components) reverses
/// every face, so that outward faces stay outward. Normals, texture coordinates, lines, points and
/// materials are ignored.
///
/// Throws std::runtime_error with a short reason (the caller adds the JSON path) when the file cannot be
/// read or parsed or has no faces — a vertex that is not three finite numbers, or a face index out of
/// range, is reported as "<file> line L: expected …, got '<token>'" (find_obj_syntax_error) — and
/// std::invalid_argument for a zero or non-finite scale.
/// The result is not validated: see find_mesh_defect.
TriangleMesh load_obj(const std::filesystem::path& file, const Vec3& scale = Vec3::Ones());

}  // namespace affix
