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
/// numbers, every face line (`f …`) has at least three corners, and every corner of a face, line
/// (`l`) or point (`p`) is `v`, `v/vt`, `v//vn` or `v/vt/vn` of non-zero integers whose vertex index
/// refers to a vertex of the file (1…N, or −1…−n for the n vertices before the line); skin weights
/// (`vw`) need non-negative joint ids. Else "line L: expected …, got '<token>'". Other lines (normals,
/// texture coordinates, groups, materials) are not checked; `#` starts a comment anywhere in a line.
std::optional<std::string> find_obj_syntax_error(std::string_view text);

/// `text` with every comment (`#` to the end of its line) removed, line breaks kept: tinyobjloader
/// only knows comments that start a line, and would fail on `f 1 2 3 # top`.
std::string strip_obj_comments(std::string_view text);

}  // namespace affix
