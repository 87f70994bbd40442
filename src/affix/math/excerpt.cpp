#include "affix/math/excerpt.hpp"

#include <cstdio>

namespace affix {

namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

void append_escaped(std::string& out, char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte != 0x7F) {
    out += c;
    return;
  }
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", byte);
      out += code;
    }
  }
}

}  // namespace

std::size_t utf8_prefix_length(std::string_view text, std::size_t max_length) {
  if (text.size() <= max_length) return text.size();
  std::size_t keep = max_length;
  // Back up to the start of a UTF-8 sequence, so the cut never leaves half a character.
  while (keep > 0 && is_continuation_byte(text[keep])) --keep;
  return keep;
}

std::string excerpt(std::string_view text, std::size_t max_length) {
  const std::size_t keep = utf8_prefix_length(text, max_length);
  std::string out;
  out.reserve(keep + 24);
  for (std::size_t i = 0; i < keep; ++i) append_escaped(out, text[i]);
  if (keep < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace affix
