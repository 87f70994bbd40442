#pragma once
// Scene files → Scene (DESIGN §3). Everything is validated here, so that a Scene that exists is a
// Scene the rest of affix may trust; bad input throws InputError with one line naming the file, the
// JSON path and what was expected (DESIGN §4).
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "affix/scene/scene.hpp"

namespace affix {

/// The largest scene file read (1 GiB); a larger one, or a path that is not a regular file (a FIFO,
/// /dev/zero), is refused before reading.
inline constexpr std::uintmax_t kMaxSceneFileBytes = std::uintmax_t{1} << 30;

/// Reads and validates a scene file. Scene::name is the file stem, Scene::file the path given.
Scene load_scene(const std::filesystem::path& file);

/// Validates an already parsed document; `file` is named in messages and anchors relative mesh paths.
Scene parse_scene(const nlohmann::json& root, const std::filesystem::path& file);

}  // namespace affix
