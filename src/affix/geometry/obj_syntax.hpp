#pragma once
// The strict part of reading an OBJ file, which tinyobjloader leaves out: it reads a coordinate it
// cannot parse (`v nan 0 0`, `v abc 0 0`, a missing z) as 0, and drops a face whose index is out of
// range with only a warning — in both cases a different mesh than the file describes is accepted
// silently. This check runs over the text first and names the line and the token instead.
#include <optional>
#include <string>
#include <string_view>

namespace affix {

/// nullopt when every vertex line (`v x y z …`) has at least three coordinates, all finite decimal
/// numbers, and every face line (`f …`) has at least three corners whose vertex index refers to a
/// vertex of the file (1…N, or −1…−n for the n vertices before the face); else
/// "line L: expected …, got '<token>'". Other lines (normals, texture coordinates, groups, materials)
/// are not checked; `#` starts a comment.
std::optional<std::string> find_obj_syntax_error(std::string_view text);

}  // namespace affix
