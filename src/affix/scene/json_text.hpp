#pragma once
// JSON text → document, with every rejection one line naming the file and the line and column
// (DESIGN §4): syntax errors, numbers too large for a double, and nesting deeper than kMaxJsonNesting.
//
// The nesting limit is there because a document is only as safe as the deepest recursion that touches
// it: 70,000 nested arrays crashed the loader (a stack overflow), and no scene needs more than a handful
// of levels. A linear pre-scan of the text refuses such a document before anything recursive sees it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace affix {

/// Arrays and objects nested deeper than this are refused. A scene file needs about six levels.
inline constexpr int kMaxJsonNesting = 256;

/// Parses `text` (the contents of `file`, named in messages). Throws InputError
/// `<file>: invalid JSON at line L, column C: <reason>`.
nlohmann::json parse_json_text(const std::string& text, const std::filesystem::path& file);

}  // namespace affix
