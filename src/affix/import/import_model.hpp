#pragma once
// MJCF and URDF → Scene (README "Importing MJCF and URDF"). MuJoCo's compiler reads the file
// (mujoco_model.hpp); the mapping stages turn its compiled model into bodies, joints, exclusions and
// settings; the result is checked exactly as a scene file is (scene_to_json, then parse_scene), so an
// imported scene and the file `affix import` writes from it are the same scene.
#include <filesystem>
#include <iosfwd>
#include <string>

#include "affix/import/unmapped.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

struct ImportedModel {
  Scene scene;
  Unmapped unmapped;                      ///< what the model has that the scene does not
  std::vector<std::string> compiler_warnings;  ///< MuJoCo's, as it wrote them
};

/// Imports `file`; throws InputError naming the file (and MuJoCo's message, or the JSON path in the
/// imported scene) when it cannot.
ImportedModel import_model_report(const std::filesystem::path& file);

/// As above, printing what was left out as one warning line on stderr:
/// `affix: warning: FILE: not imported: 21 actuators, 3 cameras, ...`.
Scene import_model(const std::filesystem::path& file);

/// The warning line import_model prints (empty when nothing was left out).
std::string unmapped_warning(const std::filesystem::path& file, const ImportedModel& imported);

/// Writes MuJoCo's compiler warnings (`affix: warning: FILE: MuJoCo: ...`, one line each), then the
/// unmapped_warning line, to `out`.
void print_import_warnings(std::ostream& out, const std::filesystem::path& file, const ImportedModel& imported);

/// Whether `file` names a model to import rather than a scene file: .xml, .mjcf or .urdf (any case).
bool is_importable_model(const std::filesystem::path& file);

}  // namespace affix
