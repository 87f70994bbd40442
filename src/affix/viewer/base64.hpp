#pragma once
// Base64 (RFC 4648, with padding): how the page carries binary arrays (poses, meshes, statistics)
// inside HTML text. The page decodes them with atob() into typed arrays.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace affix::viewer {

/// The base64 text of `size` bytes at `data`.
std::string base64_encode(const void* data, std::size_t size);

/// The bytes of base64 `text`. Throws std::invalid_argument on a character outside the alphabet or a
/// length that is not a multiple of four.
std::vector<unsigned char> base64_decode(std::string_view text);

/// base64_encode of a vector's elements as they lie in memory (little-endian on every platform the
/// page runs on, as typed arrays read them).
template <typename T>
std::string base64_encode(const std::vector<T>& values) {
  return base64_encode(values.data(), values.size() * sizeof(T));
}

}  // namespace affix::viewer
