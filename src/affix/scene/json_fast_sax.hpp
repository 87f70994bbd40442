#pragma once
// A strict RFC 8259 JSON reader that drives a SAX handler with nlohmann's events (null, boolean,
// number_integer, number_unsigned, number_float, string, start_object, key, end_object, start_array,
// end_array) and the values nlohmann's own lexer gives them, several times faster than nlohmann's
// sax_parse: a 10⁶-link scene is about a gigabyte of text, and nlohmann's character-at-a-time lexer
// alone took a third of its load time.
//
// It says only whether the text is valid; where and why it is not is nlohmann's to say, so that every
// message stays as it was: parse_json_text runs nlohmann's parser for the message when this one stops.
// For that the two must agree on what is valid (tests/scene/test_json_fast_sax.cpp checks them against
// each other on valid, mutated and random texts):
// - numbers: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; without fraction and exponent an integer
//   (int64 when negative, uint64 otherwise) if it fits, else a double, as nlohmann does; a double that
//   overflows to infinity is refused (nlohmann's "number overflow"), one that underflows is kept;
// - strings: no unescaped control characters, only the escapes \" \\ \/ \b \f \n \r \t \uXXXX, UTF-16
//   surrogates only in high–low pairs, and well-formed UTF-8 (no overlong forms, no surrogates, at most
//   U+10FFFF);
// - one value surrounded by whitespace (space, tab, line feed, carriage return), after an optional UTF-8
//   byte order mark.
// Nesting depth is checked before either parser runs (json_text.hpp), so the recursion here is bounded;
// a depth guard refuses anything deeper all the same.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace affix {

template <class Sax>
class FastJsonSax {
 public:
  FastJsonSax(std::string_view text, Sax& sax, int max_depth) : p_(text.data()), end_(text.data() + text.size()),
                                                                sax_(&sax), max_depth_(max_depth) {}

  /// True when the whole text was one valid JSON value and the handler took every event.
  bool parse() {
    if (end_ - p_ >= 1 && static_cast<unsigned char>(*p_) == 0xEF) {  // a byte order mark, whole or not at all
      if (end_ - p_ < 3 || static_cast<unsigned char>(p_[1]) != 0xBB || static_cast<unsigned char>(p_[2]) != 0xBF) {
        return false;
      }
      p_ += 3;
    }
    skip_whitespace();
    if (!value(0)) return false;
    skip_whitespace();
    return p_ == end_;
  }

 private:
  void skip_whitespace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool value(int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"':
        if (!string(buffer_)) return false;
        return sax_->string(buffer_);
      case 't': return literal("true") && sax_->boolean(true);
      case 'f': return literal("false") && sax_->boolean(false);
      case 'n': return literal("null") && sax_->null();
      default: return number();
    }
  }

  bool object(int depth) {
    if (depth > max_depth_) return false;
    ++p_;  // '{'
    if (!sax_->start_object(static_cast<std::size_t>(-1))) return false;
    skip_whitespace();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return sax_->end_object();
    }
    for (;;) {
      if (p_ == end_ || *p_ != '"' || !string(key_) || !sax_->key(key_)) return false;
      skip_whitespace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_whitespace();
      if (!value(depth)) return false;
      skip_whitespace();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        return sax_->end_object();
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_whitespace();
    }
  }

  bool array(int depth) {
    if (depth > max_depth_) return false;
    ++p_;  // '['
    if (!sax_->start_array(static_cast<std::size_t>(-1))) return false;
    skip_whitespace();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return sax_->end_array();
    }
    for (;;) {
      if (!value(depth)) return false;
      skip_whitespace();
      if (p_ == end_) return false;
      if (*p_ == ']') {
        ++p_;
        return sax_->end_array();
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_whitespace();
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  bool number() {
    const char* const start = p_;
    if (p_ != end_ && *p_ == '-') ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    bool integral = true;
    if (p_ != end_ && *p_ == '.') {
      integral = false;
      ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ != end_ && digit(*p_)) ++p_;
    }
    if (integral) {  // nlohmann: an integer that fits, else the same text as a double
      if (*start == '-') {
        std::int64_t v = 0;
        const auto [at, ec] = std::from_chars(start, p_, v);
        if (ec == std::errc() && at == p_) return sax_->number_integer(v);
      } else {
        std::uint64_t v = 0;
        const auto [at, ec] = std::from_chars(start, p_, v);
        if (ec == std::errc() && at == p_) return sax_->number_unsigned(v);
      }
    }
    double v = 0.0;
    const auto [at, ec] = std::from_chars(start, p_, v);
    if (ec == std::errc::result_out_of_range) {
      // Overflow or underflow: strtod tells them apart the way nlohmann sees them (it calls strtod).
      const std::string token(start, p_);
      v = std::strtod(token.c_str(), nullptr);
    } else if (ec != std::errc() || at != p_) {
      return false;
    }
    if (!std::isfinite(v)) return false;  // nlohmann: "number overflow"
    return sax_->number_float(v, empty_);
  }

  static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  /// Four hex digits after "\u"; -1 if they are not.
  int code_unit() {
    if (end_ - p_ < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex(p_[i]);
      if (h < 0) return -1;
      v = 16 * v + h;
    }
    p_ += 4;
    return v;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  /// One escape after the backslash.
  bool escape(std::string& out) {
    if (p_ == end_) return false;
    const char c = *p_++;
    switch (c) {
      case '"': out += '"'; return true;
      case '\\': out += '\\'; return true;
      case '/': out += '/'; return true;
      case 'b': out += '\b'; return true;
      case 'f': out += '\f'; return true;
      case 'n': out += '\n'; return true;
      case 'r': out += '\r'; return true;
      case 't': out += '\t'; return true;
      case 'u': break;
      default: return false;
    }
    const int unit = code_unit();
    if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) return false;  // a low surrogate alone
    if (unit < 0xD800 || unit > 0xDBFF) {
      append_utf8(out, static_cast<std::uint32_t>(unit));
      return true;
    }
    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;  // a high surrogate alone
    p_ += 2;
    const int low = code_unit();
    if (low < 0xDC00 || low > 0xDFFF) return false;
    append_utf8(out, 0x10000 + ((static_cast<std::uint32_t>(unit) - 0xD800) << 10) + (static_cast<std::uint32_t>(low) - 0xDC00));
    return true;
  }

  /// One UTF-8 sequence of two to four bytes starting at p_ (RFC 3629's table, as nlohmann checks it).
  bool utf8_sequence(std::string& out) {
    const auto byte = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p_[i]); };
    const unsigned char b0 = byte(0);
    int length = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      length = 3;
      if (b0 == 0xE0) lo = 0xA0;
      if (b0 == 0xED) hi = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      length = 4;
      if (b0 == 0xF0) lo = 0x90;
      if (b0 == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ < length || byte(1) < lo || byte(1) > hi) return false;
    for (int i = 2; i < length; ++i) {
      if (byte(i) < 0x80 || byte(i) > 0xBF) return false;
    }
    out.append(p_, static_cast<std::size_t>(length));
    p_ += length;
    return true;
  }

  /// A string from its opening quote, unescaped into `out`.
  bool string(std::string& out) {
    out.clear();
    ++p_;  // '"'
    for (;;) {
      const char* run = p_;  // plain ASCII is copied in runs
      while (p_ != end_) {
        const unsigned char c = static_cast<unsigned char>(*p_);
        if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
        ++p_;
      }
      out.append(run, static_cast<std::size_t>(p_ - run));
      if (p_ == end_) return false;
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c == '\\') {
        ++p_;
        if (!escape(out)) return false;
      } else if (c >= 0x80) {
        if (!utf8_sequence(out)) return false;
      } else {
        return false;  // a control character
      }
    }
  }

  const char* p_;
  const char* end_;
  Sax* sax_;
  int max_depth_;
  std::string buffer_, key_;
  std::string empty_;  // the token text nlohmann passes with a double, which no handler here reads
};

/// Parses `text` into `sax`; false if the text is not valid JSON (the handler may have had some events).
template <class Sax>
bool fast_sax_parse(std::string_view text, Sax& sax, int max_depth) {
  return FastJsonSax<Sax>(text, sax, max_depth).parse();
}

}  // namespace affix
