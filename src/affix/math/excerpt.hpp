#pragma once
// User text quoted in an error message (an unknown key, a body name, a string value, an OBJ token), cut
// to a readable length. A message is one line by contract (DESIGN §4), so a 10 MB key must not become a
// 10 MB line, and a key with a line break in it must not become two lines. This is text, not maths; it
// lives in math/ only because math is the layer below both users, the scene reader and the OBJ loader.
#include <cstddef>
#include <string>
#include <string_view>

namespace affix {

/// The longest excerpt of user text, in bytes, before the "... (N bytes)" suffix.
inline constexpr std::size_t kMaxExcerptLength = 80;

/// `text` for a one-line message: control characters written as escapes (\n, \t, \u001b), and text
/// longer than `max_length` bytes cut there — never inside a UTF-8 sequence — and followed by
/// "... (N bytes)" with N the original length. Work is bounded by `max_length`, not by the text.
std::string excerpt(std::string_view text, std::size_t max_length = kMaxExcerptLength);

/// The length of the longest prefix of `text` of at most `max_length` bytes that does not end inside a
/// UTF-8 sequence: where excerpt() cuts.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max_length);

}  // namespace affix
