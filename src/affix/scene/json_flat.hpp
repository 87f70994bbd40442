#pragma once
// One JSON value held as a flat array of nodes in document order, its keys and strings in one buffer:
// the form a scene's bodies and joints are read from when a large file is loaded (scene/parallel_load).
// Built by the strict tokenizer (json_fast_sax.hpp) with the same values nlohmann's parser gives, and
// reused from element to element, so that reading a body costs no allocation: an nlohmann document per
// element (a map node and a key string per field, a vector per array, all freed again) was a third of
// the load of a 10⁶-link chain.
//
// It holds only what a valid scene element needs: a key repeated within an object, or an object of more
// than kMaxFlatMembers members, is not taken (parse() returns false), and the caller reads the text the
// slow way, which names the fault (json_text.hpp).
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace affix {

/// Objects with more members are left to nlohmann's document: the duplicate-key check here is a scan
/// of the members read so far, and no scene object has more than about twenty.
inline constexpr std::size_t kMaxFlatMembers = 64;

class FlatJson {
 public:
  using Type = nlohmann::json::value_t;  // the same type names as the document's

  struct Node {
    Type type = Type::null;
    bool boolean = false;
    std::uint32_t key_offset = 0;  // a member of an object: its key in the buffer
    std::uint32_t key_size = 0;
    std::uint32_t end = 0;         // one past the last node of this value (its children come first)
    std::uint32_t size = 0;        // array, object: elements / members; string: bytes
    union {
      double number_float;
      std::int64_t number_integer;
      std::uint64_t number_unsigned;
      std::uint64_t string_offset;  // in the buffer
    };
    Node() : number_unsigned(0) {}
  };

  /// Reads `text`: exactly one value, then whitespace only. False if the text is not valid JSON (as
  /// json_fast_sax.hpp judges it), nests deeper than `max_depth`, or is outside what this form holds
  /// (see above). The previous value is dropped; the buffers keep their capacity.
  bool parse(std::string_view text, int max_depth);

  const Node& node(std::uint32_t index) const { return nodes_[index]; }
  std::string_view key(const Node& n) const { return {strings_.data() + n.key_offset, n.key_size}; }
  std::string_view string(const Node& n) const { return {strings_.data() + n.string_offset, n.size}; }
  /// The first child of a container (valid only if it has one) and the sibling after `index`.
  static std::uint32_t first_child(std::uint32_t index) { return index + 1; }
  std::uint32_t next_sibling(std::uint32_t index) const { return nodes_[index].end; }

  /// The member `key` of object `index`, or 0 (the root is never a member).
  std::uint32_t find(std::uint32_t index, std::string_view key) const;
  /// The element `i` of array `index` (i < size).
  std::uint32_t element(std::uint32_t index, std::size_t i) const;

  /// The value as a document, for messages (JsonReader::render) and tests.
  nlohmann::json to_json(std::uint32_t index) const;

 private:
  friend class FlatBuilder;
  std::vector<Node> nodes_;
  std::string strings_;
  std::vector<std::uint32_t> open_;       // the builder's stack of open containers, kept for its capacity
  std::vector<std::uint64_t> key_bits_;   // and a summary of each one's keys
};

}  // namespace affix
