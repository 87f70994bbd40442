#pragma once
// Reads one entry of `bodies` (DESIGN §3) into a BodyDef; absent fields keep their defaults. Name
// uniqueness needs the other bodies and is checked by the scene loader.
#include <filesystem>

#include "affix/scene/json_reader.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

BodyDef read_body(const JsonReader& value, const std::filesystem::path& scene_dir);

/// A quaternion [w, x, y, z] or {axis, angle_deg}, normalised; a zero quaternion or axis is an error.
Quat read_rotation(const JsonReader& value);

}  // namespace affix
