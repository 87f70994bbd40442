#include "affix/io/number_format.hpp"

#include <cassert>
#include <charconv>
#include <cmath>
#include <system_error>

namespace affix {

namespace {

// Significant digits that identify every double uniquely (max_digits10 of an IEEE binary64).
constexpr int kRoundTripDigits = 17;

/// Appends `value` with `digits` significant digits, or the shortest round-trip form when digits is 0.
void append_formatted(std::string& out, double value, int digits) {
  // std::to_chars would print "-nan" for a NaN with its sign bit set; spell the three non-finite
  // values ourselves so that the output never contains anything else.
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "inf" : "-inf";
    return;
  }
  // "-1.2345678901234567e-308" is 24 characters; 32 leaves room.
  char buffer[32];
  const std::to_chars_result result =
      digits > 0 ? std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits)
                 : std::to_chars(buffer, buffer + sizeof buffer, value);
  assert(result.ec == std::errc{} && "the buffer is larger than the longest result");
  out.append(buffer, result.ptr);
}

}  // namespace

void append_number(std::string& out, double value) { append_formatted(out, value, kRoundTripDigits); }

std::string format_shortest(double value) {
  std::string text;
  append_formatted(text, value, 0);
  return text;
}

std::string format_number(double value) {
  std::string text;
  append_number(text, value);
  return text;
}

}  // namespace affix
