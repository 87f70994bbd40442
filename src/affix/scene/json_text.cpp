#include "affix/scene/json_text.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"

namespace affix {

namespace {

/// The 1-based line and column of byte `offset` (0-based) of `text`.
std::pair<std::size_t, std::size_t> line_and_column(const std::string& text, std::size_t offset) {
  const std::size_t end = std::min(offset, text.size());
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, end - line_start + 1};
}

std::string position_of(const std::string& text, std::size_t offset) {
  const auto [line, column] = line_and_column(text, offset);
  return " at line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// The offset of the first bracket that opens level kMaxJsonNesting + 1, if any. Brackets inside
/// strings do not count; a string ends at the first quote not escaped by a backslash. Whatever else is
/// wrong with the text is left to the parser.
std::optional<std::size_t> too_deep_at(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting) return i;
    } else if (c == ']' || c == '}') {
      --depth;  // unbalanced brackets are the parser's to report
    }
  }
  return std::nullopt;
}

/// nlohmann's message without its "[json.exception...] parse error at ...: " prefix, and with the
/// text it quotes ("last read: '...'", which can be a whole unterminated string) cut short.
std::string parse_reason(const nlohmann::json::parse_error& e) {
  const std::string what = e.what();
  const std::size_t at = what.find("parse error");
  const std::size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  const std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
  return excerpt(reason, 2 * kMaxExcerptLength);
}

/// A number too large for a double ("number overflow parsing '1e999'") comes without a position:
/// find the quoted literal in the text instead.
std::string overflow_position(const std::string& text, const std::string& reason) {
  const std::size_t open = reason.find('\'');
  const std::size_t close = reason.rfind('\'');
  if (open == std::string::npos || close <= open + 1) return "";
  const std::size_t at = text.find(reason.substr(open + 1, close - open - 1));
  return at == std::string::npos ? "" : position_of(text, at);
}

/// Follows the parser through the document (nlohmann's parse callback) and refuses an object that has
/// a key twice: nlohmann would keep the last one silently, so `"name": "a", "name": "b"` would load as
/// "b". Keys are compared after unescaping, as the parser sees them.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::filesystem::path& file) : file_(&file) {}

  bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start: frames_.push_back(Frame{true, {}, {}, 0}); break;
      case Event::array_start: frames_.push_back(Frame{false, {}, {}, 0}); break;
      case Event::key: {
        Frame& frame = frames_.back();
        std::string key = parsed.get<std::string>();
        if (!frame.keys.insert(key).second) {
          frames_.pop_back();  // the path names the object, not the key
          throw InputError(file_->string() + ": " + path() + ": duplicate key '" + excerpt(key) +
                           "' (expected each key at most once in an object)");
        }
        frame.key = std::move(key);
        break;
      }
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        element_done();
        break;
      case Event::value: element_done(); break;
    }
    return true;
  }

 private:
  struct Frame {
    bool is_object;
    std::unordered_set<std::string> keys;  // objects: the keys so far
    std::string key;                       // objects: the key of the value being read
    std::size_t index;                     // arrays: the index of the element being read
  };

  void element_done() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
  }

  /// The dot/bracket path of the innermost open value, as JsonReader writes it.
  std::string path() const {
    std::string out;
    for (const Frame& frame : frames_) {
      if (!frame.is_object) {
        out += '[';
        out += std::to_string(frame.index);
        out += ']';
      } else {
        if (!out.empty()) out += '.';
        out += excerpt(frame.key);
      }
    }
    return out.empty() ? "(top level)" : out;
  }

  const std::filesystem::path* file_;
  std::vector<Frame> frames_;
};

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::filesystem::path& file) {
  const std::string invalid = file.string() + ": invalid JSON";
  if (const auto at = too_deep_at(text)) {
    const std::string limit = std::to_string(kMaxJsonNesting);
    throw InputError(invalid + position_of(text, *at) + ": arrays and objects nested more than " + limit +
                     " levels deep (expected at most " + limit + " levels)");
  }
  try {
    return nlohmann::json::parse(text, DuplicateKeyCheck(file));
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's byte is 1-based: the offset of the byte just read.
    throw InputError(invalid + position_of(text, e.byte == 0 ? 0 : e.byte - 1) + ": " + parse_reason(e));
  } catch (const nlohmann::json::out_of_range& e) {
    const std::string what = e.what();
    const std::string reason = what.substr(what.find("] ") + 2);
    throw InputError(invalid + overflow_position(text, reason) + ": " + excerpt(reason, 2 * kMaxExcerptLength));
  }
}

}  // namespace affix
