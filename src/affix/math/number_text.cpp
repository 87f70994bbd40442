#include "affix/math/number_text.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace affix {

std::string number_text(double value) {
  if (std::isnan(value)) return "nan";  // to_chars could write "-nan"
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];  // the longest shortest form, "-1.2345678901234567e-308", is 24 characters
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (result.ec != std::errc{}) return "?";  // cannot happen with this buffer
  return std::string(buffer, result.ptr);
}

}  // namespace affix
