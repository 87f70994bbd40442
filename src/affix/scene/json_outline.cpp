#include "affix/scene/json_outline.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace affix {

namespace {

constexpr std::size_t kBlock = 64;

/// Bit i set where byte i of the 64-byte block is the one asked for: the pass looks at the few bytes
/// that matter (quotes, backslashes, brackets, commas), not at every byte of a gigabyte.
struct BlockMasks {
  std::uint64_t quote = 0, backslash = 0, bracket = 0, comma = 0;
};

BlockMasks classify(const char* p) {
  BlockMasks m;
#if defined(__SSE2__)
  const auto mask = [](__m128i bytes, char c) {
    return static_cast<std::uint64_t>(static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(c)))));
  };
  for (int k = 0; k < 4; ++k) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const int shift = 16 * k;
    m.quote |= mask(bytes, '"') << shift;
    m.backslash |= mask(bytes, '\\') << shift;
    m.bracket |= (mask(bytes, '[') | mask(bytes, ']') | mask(bytes, '{') | mask(bytes, '}')) << shift;
    m.comma |= mask(bytes, ',') << shift;
  }
#else
  for (std::size_t i = 0; i < kBlock; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    switch (p[i]) {
      case '"': m.quote |= bit; break;
      case '\\': m.backslash |= bit; break;
      case '[': case ']': case '{': case '}': m.bracket |= bit; break;
      case ',': m.comma |= bit; break;
      default: break;
    }
  }
#endif
  return m;
}

bool is_whitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/// The pass's state between the bytes that matter.
class Outliner {
 public:
  Outliner(std::string_view text, std::span<const std::string_view> keys) : text_(text), keys_(keys) {}

  bool run() {
    std::size_t at = 0;
    if (text_.size() >= 3 && text_.substr(0, 3) == "\xEF\xBB\xBF") at = 3;  // a byte order mark
    while (at < text_.size() && is_whitespace(text_[at])) ++at;
    if (at == text_.size() || text_[at] != '{') return false;
    char tail[kBlock];
    for (std::size_t block = 0; block < text_.size(); block += kBlock) {
      const char* p = text_.data() + block;
      if (text_.size() - block < kBlock) {  // the last, short block: padded with spaces
        std::memset(tail, ' ', kBlock);
        std::memcpy(tail, p, text_.size() - block);
        p = tail;
      }
      if (!scan_block(p, block)) return false;
    }
    return !in_string_ && depth_ == 0;
  }

  std::vector<OutlinedArray>& arrays() { return arrays_; }

 private:
  bool scan_block(const char* p, std::size_t block) {
    const BlockMasks m = classify(p);
    std::uint64_t bits = m.quote | m.backslash | m.bracket | m.comma;
    if (skip_first_) {  // escaped by a backslash that ended the previous block
      bits &= ~std::uint64_t{1};
      skip_first_ = false;
    }
    while (bits != 0) {
      const int i = std::countr_zero(bits);
      bits &= bits - 1;
      const char c = p[i];
      const std::size_t pos = block + static_cast<std::size_t>(i);
      if (in_string_) {
        if (c == '\\') {  // the next byte is escaped, whatever it is
          string_escaped_ = true;
          if (i == kBlock - 1) {
            skip_first_ = true;
          } else {
            bits &= ~(std::uint64_t{2} << i);
          }
        } else if (c == '"') {
          in_string_ = false;
          if (!string_ended(pos)) return false;
        }
        continue;
      }
      if (!structural(c, pos)) return false;
    }
    return true;
  }

  bool string_ended(std::size_t close) {
    if (depth_ != 1 || !key_expected_) return true;
    if (string_escaped_) return false;  // a key with an escape might spell a wanted one
    key_ = text_.substr(string_start_ + 1, close - string_start_ - 1);
    key_expected_ = false;
    return true;
  }

  /// The first byte after `pos` that is not whitespace: where an element starts.
  std::uint32_t next_start(std::size_t pos) const {
    std::size_t at = pos + 1;
    while (at < text_.size() && is_whitespace(text_[at])) ++at;
    return static_cast<std::uint32_t>(at);
  }

  bool structural(char c, std::size_t pos) {
    switch (c) {
      case '"':
        in_string_ = true;
        string_escaped_ = false;
        string_start_ = pos;
        return true;
      case '[':
      case '{':
        ++depth_;
        if (depth_ == 1) key_expected_ = true;
        if (depth_ == 2 && c == '[' && std::find(keys_.begin(), keys_.end(), key_) != keys_.end()) {
          arrays_.push_back(OutlinedArray{key_, pos, 0, {}, {}});
          current_ = &arrays_.back();
          const std::uint32_t start = next_start(pos);
          if (start < text_.size() && text_[start] != ']') current_->starts.push_back(start);
        }
        return true;
      case ']':
      case '}':
        if (depth_ == 2 && current_) {
          if (current_->starts.size() > current_->ends.size()) current_->ends.push_back(static_cast<std::uint32_t>(pos));
          current_->close = pos;
          current_ = nullptr;
        }
        return --depth_ >= 0;
      case ',':
        if (depth_ == 1) key_expected_ = true;
        if (depth_ == 2 && current_) {
          current_->ends.push_back(static_cast<std::uint32_t>(pos));
          current_->starts.push_back(next_start(pos));
        }
        return true;
      default: return true;  // a backslash outside a string: the strict parse refuses it
    }
  }

  std::string_view text_;
  std::span<const std::string_view> keys_;
  std::vector<OutlinedArray> arrays_;
  OutlinedArray* current_ = nullptr;  // the wanted array the pass is in (depth ≥ 2)
  int depth_ = 0;
  bool in_string_ = false, string_escaped_ = false, skip_first_ = false, key_expected_ = false;
  std::size_t string_start_ = 0;
  std::string_view key_;  // the last key of the top-level object
};

}  // namespace

std::optional<std::vector<OutlinedArray>> outline_top_level_arrays(std::string_view text,
                                                                   std::span<const std::string_view> keys) {
  if (text.size() >= (std::size_t{1} << 32)) return std::nullopt;  // offsets are 32-bit
  Outliner outliner(text, keys);
  if (!outliner.run()) return std::nullopt;
  return std::move(outliner.arrays());
}

}  // namespace affix
