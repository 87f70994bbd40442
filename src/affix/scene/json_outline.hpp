#pragma once
// Where the elements of a JSON text's large top-level arrays lie, found by one quick pass that follows
// only strings and brackets: what lets a scene's bodies and joints be parsed and read in parallel
// (scene/parallel_scene_reader). The pass does not validate: every piece it finds is parsed strictly
// afterwards, and together the pieces tile the text (DESIGN §4's messages come from the serial reader,
// which the caller falls back to when any piece is refused).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace affix {

/// One array that is the value of a member of the top-level object.
struct OutlinedArray {
  std::string_view key;
  std::size_t open = 0;   ///< the offset of its '['
  std::size_t close = 0;  ///< the offset of its ']'
  /// Element i is the text [starts[i], ends[i]): its first byte (not whitespace) up to the ',' or ']'
  /// after it (the element, then whitespace, in a valid text).
  std::vector<std::uint32_t> starts, ends;
};

/// The arrays among `keys` that are members of the top-level object, in text order. Nullopt when the
/// text is not outlined: not an object at the top, a top-level key with an escape (it might spell one of
/// `keys`), brackets that do not balance, an unterminated string, or a text of 4 GiB or more.
std::optional<std::vector<OutlinedArray>> outline_top_level_arrays(std::string_view text,
                                                                   std::span<const std::string_view> keys);

}  // namespace affix
