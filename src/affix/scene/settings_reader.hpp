#pragma once
// Reads `settings` of a scene file (DESIGN §3) into Settings; absent fields keep their defaults. Each
// `settings.<solver>` object is kept raw (Settings::solver_settings): its solver reads and validates it.
#include "affix/scene/json_reader.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

Settings read_settings(const JsonReader& value);

}  // namespace affix
