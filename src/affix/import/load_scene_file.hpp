#pragma once
// The one loader behind every command that takes a scene (`affix run`, `validate`, `info`) and the
// Python module: a scene file (JSON), or an MJCF/URDF model imported on the fly, chosen by extension.
#include <filesystem>

#include "affix/scene/scene.hpp"

namespace affix {

/// import_model for .xml, .mjcf and .urdf; load_scene for anything else. Throws InputError.
Scene load_scene_file(const std::filesystem::path& file);

}  // namespace affix
