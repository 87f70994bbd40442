#include "affix/viewer/base64.hpp"

#include <array>
#include <stdexcept>

namespace affix::viewer {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> decoding_table() {
  std::array<int, 256> table{};
  for (int& v : table) v = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(kAlphabet[i])] = i;
  return table;
}

}  // namespace

std::string base64_encode(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < size; i += 3) {
    const unsigned n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i < size) {
    const bool two = i + 1 < size;
    const unsigned n = (bytes[i] << 16) | (two ? bytes[i + 1] << 8 : 0);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += two ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::vector<unsigned char> base64_decode(std::string_view text) {
  static constexpr std::array<int, 256> kTable = decoding_table();
  if (text.size() % 4 != 0) throw std::invalid_argument("base64: length is not a multiple of 4");
  std::vector<unsigned char> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = text[i + j];
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        v[j] = 0;
        ++pad;
        continue;
      }
      v[j] = kTable[static_cast<unsigned char>(c)];
      if (v[j] < 0 || pad > 0) throw std::invalid_argument("base64: unexpected character");
    }
    const unsigned n = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    out.push_back(static_cast<unsigned char>(n >> 16));
    if (pad < 2) out.push_back(static_cast<unsigned char>((n >> 8) & 255));
    if (pad < 1) out.push_back(static_cast<unsigned char>(n & 255));
  }
  return out;
}

}  // namespace affix::viewer
