#pragma once
// Reads a body's `shape` (DESIGN §3): exactly one of box, sphere, capsule, cylinder, torus, mesh, plus
// an optional `resolution` for the primitives.
#include <filesystem>

#include "affix/scene/json_reader.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

/// A mesh `file` is resolved against `scene_dir` (the scene file's directory); it is not opened here.
Shape read_shape(const JsonReader& value, const std::filesystem::path& scene_dir);

}  // namespace affix
