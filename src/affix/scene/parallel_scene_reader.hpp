#pragma once
// A scene text's bodies and joints parsed and read in parallel, element by element (TBB, all cores):
// the load of a 10⁶-link chain file, a gigabyte of text, on the cores a machine has.
//
// The text is outlined first (json_outline.hpp); each element is then parsed strictly into a reused
// flat value (json_flat.hpp) and read by the same readers as ever (read_body, read_joint) into its place,
// and the rest of the document (settings, ground, forces…) is parsed with the elements cut out. Only a
// valid scene is read this way: at the first thing that is not (a syntax error, a duplicate key, a value
// a reader refuses, a repeated name), or that this path does not take (an escaped top-level key, an
// element that is not an object or array), it gives up, and the caller reads the text serially, which
// names the fault exactly as before.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "affix/scene/body_names.hpp"
#include "affix/scene/scene.hpp"

namespace affix {

struct ParallelElements {
  nlohmann::json rest;                          ///< the document with empty `bodies` and `joints`
  std::vector<BodyDef> bodies;
  std::optional<BodyNames> names;               ///< their index, names checked unique
  std::optional<std::vector<JointDef>> joints;  ///< present when the document has a `joints` array
};

/// Nullopt when the text is not read this way (see above). `file` is named in paths and anchors mesh
/// files, as load_scene does.
std::optional<ParallelElements> read_elements_in_parallel(std::string_view text, const std::filesystem::path& file);

}  // namespace affix
