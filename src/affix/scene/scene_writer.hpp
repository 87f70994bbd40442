#pragma once
// Scene → scene file (DESIGN §3), the inverse of the loader: load_scene(save_scene(s)) gives back s
// (angles to within the rounding of the radian ↔ degree conversion). Every field is written, defaults
// included, so a saved file documents the whole scene; optional fields that are absent stay absent.
// The `settings.<solver>` blocks are the exception: they are written as the file had them (absent when
// it had none), since their fields and defaults belong to the solvers, not to the scene layer.
// A body with `mass` is written without `density`, which the loader would reject beside it; one with
// `inertial` without either.
#include <filesystem>
#include <string>
#include <nlohmann/json.hpp>

#include "affix/scene/scene.hpp"

namespace affix {

/// Mesh paths are written relative to `base_dir` where possible (absolute otherwise).
nlohmann::json scene_to_json(const Scene& scene, const std::filesystem::path& base_dir);
/// As above, relative to the directory of scene.file (the current directory when it is empty).
nlohmann::json scene_to_json(const Scene& scene);

/// Writes the scene to `file`, mesh paths relative to its directory; throws InputError if it cannot.
/// scene_to_json(scene, base_dir).dump(2) + "\n", byte for byte, built one body and one joint at a
/// time rather than as one document (what save_scene writes).
std::string scene_text(const Scene& scene, const std::filesystem::path& base_dir);

void save_scene(const Scene& scene, const std::filesystem::path& file);

}  // namespace affix
