#include "affix/scene/json_flat.hpp"

#include <utility>

#include "affix/scene/json_fast_sax.hpp"

namespace affix {

/// The SAX handler that fills a FlatJson: a node per value, appended in document order; a container's
/// `end` and `size` are set when it closes.
class FlatBuilder {
 public:
  using json = nlohmann::json;

  explicit FlatBuilder(FlatJson& out) : out_(&out), open_(&out.open_), key_bits_(&out.key_bits_) {
    out.nodes_.clear();
    out.strings_.clear();
    open_->clear();
    key_bits_->clear();
  }

  bool null() {
    add(Type::null);
    return true;
  }
  bool boolean(bool v) {
    add(Type::boolean).boolean = v;
    return true;
  }
  bool number_integer(json::number_integer_t v) {
    add(Type::number_integer).number_integer = v;
    return true;
  }
  bool number_unsigned(json::number_unsigned_t v) {
    add(Type::number_unsigned).number_unsigned = v;
    return true;
  }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) {
    add(Type::number_float).number_float = v;
    return true;
  }
  bool string(json::string_t& v) {
    const std::uint32_t offset = append(v);
    FlatJson::Node& n = add(Type::string);
    n.string_offset = offset;
    n.size = static_cast<std::uint32_t>(v.size());
    return true;
  }
  bool binary(json::binary_t& /*v*/) { return false; }  // not produced by a JSON text

  bool start_object(std::size_t /*elements*/) { return open(Type::object); }
  bool start_array(std::size_t /*elements*/) { return open(Type::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  /// A key: refused if the object has it already, or has too many members for the scan that checks.
  /// The scan runs only when the key's bit in the object's 64-bit summary of its keys (length and first
  /// byte) is set already: most keys of an object differ there, so most keys cost no comparison.
  bool key(json::string_t& k) {
    const std::uint32_t object = open_->back();
    FlatJson::Node& parent = out_->nodes_[object];
    if (parent.size >= kMaxFlatMembers) return false;
    const std::uint64_t bit = std::uint64_t{1} << ((k.size() * 31 + (k.empty() ? 0 : static_cast<unsigned char>(k[0]))) % 64);
    std::uint64_t& seen = key_bits_->back();
    if (seen & bit) {
      for (std::uint32_t child = object + 1; child < out_->nodes_.size(); child = out_->nodes_[child].end) {
        if (out_->key(out_->nodes_[child]) == k) return false;
      }
    }
    seen |= bit;
    key_offset_ = append(k);
    key_size_ = static_cast<std::uint32_t>(k.size());
    return true;
  }

 private:
  using Type = FlatJson::Type;

  std::uint32_t append(const std::string& s) {
    const auto offset = static_cast<std::uint32_t>(out_->strings_.size());
    out_->strings_.append(s);
    return offset;
  }

  /// A new node where the open container expects its next value (its key, if in an object).
  FlatJson::Node& add(Type type) {
    auto& nodes = out_->nodes_;
    const auto index = static_cast<std::uint32_t>(nodes.size());
    FlatJson::Node& n = nodes.emplace_back();
    n.type = type;
    n.end = index + 1;
    if (!open_->empty()) {
      FlatJson::Node& parent = nodes[open_->back()];
      ++parent.size;
      if (parent.type == Type::object) {
        n.key_offset = key_offset_;
        n.key_size = key_size_;
      }
    }
    return n;
  }

  bool open(Type type) {
    const auto index = static_cast<std::uint32_t>(out_->nodes_.size());
    add(type);
    open_->push_back(index);
    key_bits_->push_back(0);
    return true;
  }

  bool close() {
    out_->nodes_[open_->back()].end = static_cast<std::uint32_t>(out_->nodes_.size());
    open_->pop_back();
    key_bits_->pop_back();
    return true;
  }

  FlatJson* out_;
  std::vector<std::uint32_t>* open_;  // the open containers, outermost first (the FlatJson's, reused)
  std::vector<std::uint64_t>* key_bits_;  // per open container: the summary of its keys (see key())
  std::uint32_t key_offset_ = 0, key_size_ = 0;
};

bool FlatJson::parse(std::string_view text, int max_depth) {
  FlatBuilder builder(*this);
  return fast_sax_parse(text, builder, max_depth);
}

std::uint32_t FlatJson::find(std::uint32_t index, std::string_view key) const {
  const std::uint32_t end = nodes_[index].end;
  for (std::uint32_t child = index + 1; child < end; child = nodes_[child].end) {
    const Node& n = nodes_[child];
    // length and first byte before the bytes: most keys of an object differ there
    if (n.key_size == key.size() && (key.empty() || strings_[n.key_offset] == key[0]) && this->key(n) == key) {
      return child;
    }
  }
  return 0;
}

std::uint32_t FlatJson::element(std::uint32_t index, std::size_t i) const {
  std::uint32_t child = index + 1;
  for (; i > 0; --i) child = nodes_[child].end;
  return child;
}

nlohmann::json FlatJson::to_json(std::uint32_t index) const {
  const Node& n = nodes_[index];
  switch (n.type) {
    case Type::boolean: return n.boolean;
    case Type::number_integer: return n.number_integer;
    case Type::number_unsigned: return n.number_unsigned;
    case Type::number_float: return n.number_float;
    case Type::string: return std::string(string(n));
    case Type::array: {
      nlohmann::json out = nlohmann::json::array();
      for (std::uint32_t c = index + 1; c < n.end; c = nodes_[c].end) out.push_back(to_json(c));
      return out;
    }
    case Type::object: {
      nlohmann::json out = nlohmann::json::object();
      for (std::uint32_t c = index + 1; c < n.end; c = nodes_[c].end) out[std::string(key(nodes_[c]))] = to_json(c);
      return out;
    }
    default: return nullptr;
  }
}

}  // namespace affix
