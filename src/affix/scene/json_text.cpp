#include "affix/scene/json_text.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/scene/json_fast_sax.hpp"

namespace affix {

namespace {

/// The 1-based line and column of byte `offset` (0-based) of `text`.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t offset) {
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

std::string position_of(std::string_view text, std::size_t offset) {
  const auto [line, column] = line_and_column(text, offset);
  return " at line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// The offset of the first bracket that opens level kMaxJsonNesting + 1, if any. Brackets inside
/// strings do not count; a string ends at the first quote not escaped by a backslash. Whatever else is
/// wrong with the text is left to the parser.
std::optional<std::size_t> too_deep_at(std::string_view text) {
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
std::string overflow_position(std::string_view text, const std::string& reason) {
  const std::size_t open = reason.find('\'');
  const std::size_t close = reason.rfind('\'');
  if (open == std::string::npos || close <= open + 1) return "";
  const std::size_t at = text.find(reason.substr(open + 1, close - open - 1));
  return at == std::string::npos ? "" : position_of(text, at);
}

/// Builds the document from nlohmann's SAX events (what its own DOM parser does), refusing an object
/// that has a key twice: nlohmann would keep the last one silently, so `"name": "a", "name": "b"` would
/// load as "b". Keys are compared after unescaping, as the parser sees them. It replaces nlohmann's parse
/// callback, which after every object scans its parent for a discarded value: O(n²) in the bodies of a
/// scene, 30 s for 10⁵. Each complete element of an array at the top level (`bodies[7]`) may be handed
/// to the sink instead of being kept (json_text.hpp).
class DomBuilder {
 public:
  using json = nlohmann::json;

  DomBuilder(const std::filesystem::path& file, const TopLevelElementSink& sink) : file_(&file), sink_(&sink) {}

  json& result() { return root_; }

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(json::number_integer_t v) { return value(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value(v); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return value(v); }
  bool string(json::string_t& v) { return value(std::move(v)); }
  bool binary(json::binary_t& v) { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t /*elements*/) {
    frames_.push_back(Frame{place(json::object()), true, nullptr, nullptr, 0});
    return true;
  }
  /// One lookup per key: the member is made here (null until its value comes), and the frame keeps
  /// where it is and the document's own copy of its key.
  bool key(json::string_t& key) {
    Frame& frame = frames_.back();
    const auto [it, inserted] = frame.value->get_ref<json::object_t&>().try_emplace(std::move(key));
    if (!inserted) {  // try_emplace leaves the key as it was when the object has it already
      frames_.pop_back();  // the path names the object, not the key
      throw InputError(file_->string() + ": " + path() + ": duplicate key '" + excerpt(key) +
                       "' (expected each key at most once in an object)");
    }
    frame.key = &it->first;
    frame.slot = &it->second;
    return true;
  }
  bool end_object() { return end_container(); }
  bool start_array(std::size_t /*elements*/) {
    frames_.push_back(Frame{place(json::array()), false, nullptr, nullptr, 0});
    return true;
  }
  bool end_array() { return end_container(); }

  template <class Exception>
  bool parse_error(std::size_t /*byte*/, const std::string& /*token*/, const Exception& e) {
    throw e;  // parse_json_text turns it into one line with the position
  }

 private:
  struct Frame {
    json* value;             // the object or array being filled
    bool is_object;
    const std::string* key;  // objects: the key of the value being read (the document's own)
    json* slot;              // objects: where that value goes
    std::size_t index;       // arrays: the index of the element being read
  };

  /// Puts `v` where the innermost open container expects its next value, and returns it there.
  json* place(json&& v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& parent = frames_.back();
    if (parent.is_object) {
      *parent.slot = std::move(v);
      return parent.slot;
    }
    parent.value->push_back(std::move(v));
    return &parent.value->back();
  }

  bool value(json&& v) {
    place(std::move(v));
    element_done();
    return true;
  }

  bool end_container() {
    frames_.pop_back();
    element_done();
    return true;
  }

  /// After a value: in an array, the next index; in an array that is a member of the top-level object,
  /// the element just completed goes to the sink, and leaves the document if the sink takes it.
  void element_done() {
    if (frames_.empty() || frames_.back().is_object) return;
    Frame& array = frames_.back();
    if (frames_.size() == 2 && frames_.front().is_object && *sink_ &&
        (*sink_)(*frames_.front().key, array.index, array.value->back())) {
      array.value->get_ref<json::array_t&>().pop_back();
    }
    ++array.index;
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
        out += excerpt(*frame.key);
      }
    }
    return out.empty() ? "(top level)" : out;
  }

  const std::filesystem::path* file_;
  const TopLevelElementSink* sink_;
  json root_;
  std::vector<Frame> frames_;
};

/// nlohmann's parser with nothing built: run on a text the fast parser refused, for the error it finds.
struct ErrorFinder {
  using json = nlohmann::json;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(json::string_t&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  template <class Exception>
  bool parse_error(std::size_t /*byte*/, const std::string& /*token*/, const Exception& e) {
    throw e;
  }
};

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file) {
  return parse_json_text(text, file, TopLevelElementSink());
}

nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file,
                               const TopLevelElementSink& sink) {
  const std::string invalid = file.string() + ": invalid JSON";
  // Too deep a text is refused before any other fault is named. The fast parser refuses it too (its
  // own depth limit), so the scan for it runs only on a text that parser stopped on, or whose reading
  // threw: a valid scene is read in one pass, not two.
  const auto refuse_if_too_deep = [&] {
    if (const auto at = too_deep_at(text)) {
      const std::string limit = std::to_string(kMaxJsonNesting);
      throw InputError(invalid + position_of(text, *at) + ": arrays and objects nested more than " + limit +
                       " levels deep (expected at most " + limit + " levels)");
    }
  };
  try {
    // The fast parser builds the document; where it stops, nlohmann's parser says why (json_fast_sax.hpp).
    DomBuilder builder(file, sink);
    bool valid = false;
    try {
      valid = fast_sax_parse(text, builder, kMaxJsonNesting);
    } catch (const InputError&) {  // a duplicate key, or the sink's: unless the text is too deep
      refuse_if_too_deep();
      throw;
    }
    if (valid) return std::move(builder.result());
    refuse_if_too_deep();
    ErrorFinder finder;
    nlohmann::json::sax_parse(text, &finder);
    throw InputError(invalid + ": syntax error");  // only if the two parsers disagree (tests say they do not)
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
