#include "affix/import/load_scene_file.hpp"

#include "affix/import/import_model.hpp"
#include "affix/scene/scene_loader.hpp"

namespace affix {

Scene load_scene_file(const std::filesystem::path& file) {
  return is_importable_model(file) ? import_model(file) : load_scene(file);
}

}  // namespace affix
