#pragma once
// Reads a body's `shape` (DESIGN §3): exactly one of box, sphere, capsule, cylinder, torus, mesh,
// compound (a list of placed, scaled parts), plus an optional `resolution` for the primitives.
#include <filesystem>

#include "affix/scene/json_reader.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// The largest `resolution` of a primitive: a box at 1000 segments per edge has 12·10⁶ triangles, a
/// sphere 10⁶. The total over a scene has its own limit (body/body_mesh.hpp).
inline constexpr int kMaxResolution = 1000;

/// A mesh `file` is resolved against `scene_dir` (the scene file's directory); it is not opened here.
Shape read_shape(const JsonReader& value, const std::filesystem::path& scene_dir);

}  // namespace affix
