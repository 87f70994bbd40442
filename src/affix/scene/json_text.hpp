#pragma once
// JSON text → document, with every rejection one line naming the file and the line and column
// (DESIGN §4): syntax errors, numbers too large for a double, and nesting deeper than kMaxJsonNesting.
//
// The nesting limit is there because a document is only as safe as the deepest recursion that touches
// it: 70,000 nested arrays crashed the loader (a stack overflow), and no scene needs more than a handful
// of levels. A linear pre-scan of the text refuses such a document before anything recursive sees it.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace affix {

/// Arrays and objects nested deeper than this are refused. A scene file needs about six levels.
inline constexpr int kMaxJsonNesting = 256;

/// Parses `text` (the contents of `file`, named in messages). Throws InputError
/// `<file>: invalid JSON at line L, column C: <reason>`.
nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file);

/// Called with each complete element of an array that is a member of the top-level object (`key` is
/// that member's key, `index` the element's index in the file), as soon as the parser has read it;
/// returning true takes the element out of the document (the array keeps the elements not taken, so
/// one whose elements are all taken ends up empty). A scene reads its bodies and joints this way, one
/// at a time, so that a 10⁶-body file never becomes a document of gigabytes.
using TopLevelElementSink = std::function<bool(std::string_view key, std::size_t index, nlohmann::json& element)>;

/// As above, handing the top-level arrays' elements to `sink` while parsing. An exception thrown by the
/// sink ends the parse and goes to the caller unchanged.
nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file,
                               const TopLevelElementSink& sink);

}  // namespace affix
