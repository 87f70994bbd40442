#include "affix/geometry/obj_syntax.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "affix/math/excerpt.hpp"

namespace affix {

namespace {

/// One line split into whitespace-separated tokens, comment removed.
std::vector<std::string_view> tokens_of(std::string_view line) {
  line = line.substr(0, line.find('#'));
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

/// Calls `visit(line_number, tokens)` for every line; lines end in \n, \r\n or \r, as tinyobjloader's.
template <typename Visit>
std::optional<std::string> for_each_line(std::string_view text, Visit visit) {
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    ++line_number;
    if (auto error = visit(line_number, tokens_of(text.substr(start, end - start)))) return error;
    start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
  return std::nullopt;
}

std::string problem(std::size_t line, const std::string& expected, std::string_view token) {
  return "line " + std::to_string(line) + ": expected " + expected + ", got '" + excerpt(token) + "'";
}

/// A finite number in plain decimal notation (what OBJ writers write): no nan, inf or hex floats,
/// which tinyobjloader would read as 0.
bool is_finite_decimal(std::string_view token) {
  if (token.empty() || token.find_first_not_of("0123456789+-.eE") != std::string_view::npos) return false;
  const std::string copy(token);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(value);
}

/// An integer index as OBJ writes it (`12`, `-3`, `+4`): tinyobjloader's atoi would read `x` or `5x`
/// as 0 or 5, and refuse or accept them without saying where.
std::optional<std::int64_t> index_of(std::string_view digits) {
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  std::int64_t index = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return index;
}

/// A texture-coordinate or normal index: a non-zero integer (tinyobjloader refuses 0).
bool is_attribute_index(std::string_view digits) {
  const std::optional<std::int64_t> index = index_of(digits);
  return index && *index != 0;
}

/// The vertex index of a face (or line, or point) corner `v`, `v/vt`, `v//vn` or `v/vt/vn` whose
/// texture and normal indices are non-zero integers; nullopt otherwise. The vertex index (an integer)
/// is the caller's to check against the vertices.
std::optional<std::int64_t> vertex_index(std::string_view corner) {
  std::string_view parts[3];
  std::size_t count = 0;
  for (std::size_t start = 0;;) {
    const std::size_t slash = corner.find('/', start);
    if (count == 3) return std::nullopt;  // a fourth part
    parts[count++] = corner.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  const std::optional<std::int64_t> v = index_of(parts[0]);
  if (!v) return std::nullopt;
  if (count >= 2 && !(count == 3 && parts[1].empty()) && !is_attribute_index(parts[1])) return std::nullopt;
  if (count == 3 && !is_attribute_index(parts[2])) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::string> find_obj_syntax_error(std::string_view text) {
  // Faces may name vertices that come later in the file (tinyobjloader resolves positive indices at
  // the end), so count them all first.
  std::int64_t total = 0;
  for_each_line(text, [&](std::size_t, const std::vector<std::string_view>& tokens) {
    if (!tokens.empty() && tokens[0] == "v") ++total;
    return std::optional<std::string>();
  });

  std::int64_t seen = 0;  // vertices before the current line, for relative (negative) indices
  return for_each_line(text, [&](std::size_t line, const std::vector<std::string_view>& tokens) {
    std::optional<std::string> error;
    if (tokens.empty()) return error;
    if (tokens[0] == "v") {
      ++seen;
      for (std::size_t k = 1; k < tokens.size() && !error; ++k) {
        if (!is_finite_decimal(tokens[k])) {
          error = problem(line, "a finite number as vertex coordinate", tokens[k]);
        }
      }
      if (!error && tokens.size() < 4) {
        error = "line " + std::to_string(line) + ": expected a vertex with 3 coordinates x y z, got " +
                std::to_string(tokens.size() - 1);
      }
    } else if (tokens[0] == "f" || tokens[0] == "l" || tokens[0] == "p") {
      // tinyobjloader reads the corners of lines and points as it reads faces, and fails alike.
      for (std::size_t k = 1; k < tokens.size() && !error; ++k) {
        const std::optional<std::int64_t> index = vertex_index(tokens[k]);
        if (!index) {
          error = problem(line, "a corner v, v/vt, v//vn or v/vt/vn of non-zero integers", tokens[k]);
          break;
        }
        const bool valid = *index > 0 ? *index <= total : *index < 0 && -*index <= seen;
        if (!valid) {
          error = problem(line,
                          "a vertex index from 1 to " + std::to_string(total) + " (or from -1 to -" +
                              std::to_string(seen) + ", counting back)",
                          tokens[k]);
        }
      }
      if (!error && tokens[0] == "f" && tokens.size() < 4) {
        error = "line " + std::to_string(line) + ": expected a face with at least 3 corners, got " +
                std::to_string(tokens.size() - 1);
      }
    } else if (tokens[0] == "vw") {
      // Skin weights `vw vertex joint weight ...`: tinyobjloader refuses a joint id that is negative
      // or not a number.
      for (std::size_t k = 2; k < tokens.size() && !error; k += 2) {
        if (!is_finite_decimal(tokens[k]) || tokens[k].front() == '-') {
          error = problem(line, "a non-negative number as joint id", tokens[k]);
        }
      }
    }
    return error;
  });
}

std::string strip_obj_comments(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_comment = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r') in_comment = false;
    else if (c == '#') in_comment = true;
    if (!in_comment) out += c;
  }
  return out;
}

}  // namespace affix
