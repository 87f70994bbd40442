#include "affix/scene/json_reader.hpp"

#include <cassert>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/normalize.hpp"

namespace affix {

namespace {

// A rendered value stays short, whatever the document holds: a message is one readable line, and the
// work of rendering is bounded too (a value may be nested thousands of levels deep, or be 10 MB of text,
// and nlohmann's dump() would recurse through, and copy, all of it).
constexpr std::size_t kMaxRenderedLength = 60;
constexpr int kMaxRenderedDepth = 2;  // deeper arrays and objects show as [...] and {...}

/// Appends a rendering of `value` to `out`, stopping early once `out` is longer than the limit.
void render_into(const nlohmann::json& value, int depth, std::string& out) {
  using Type = nlohmann::json::value_t;
  const bool is_array = value.type() == Type::array;
  switch (value.type()) {
    case Type::string:
      out += '"' + excerpt(value.get_ref<const std::string&>(), kMaxRenderedLength) + '"';
      return;
    case Type::number_float: {
      // JSON itself cannot hold inf or NaN, but an overflowing literal (1e999) parses to inf.
      const double v = value.get<double>();
      out += std::isnan(v) ? "nan" : std::isinf(v) ? (v > 0 ? "inf" : "-inf") : value.dump();
      return;
    }
    case Type::array:
    case Type::object: break;
    default: out += value.dump(); return;  // null, boolean, integer: short
  }
  const char* brackets = is_array ? "[]" : "{}";
  if (value.empty()) {
    out += brackets;
    return;
  }
  if (depth >= kMaxRenderedDepth) {
    out += brackets[0] + std::string("...") + brackets[1];
    return;
  }
  out += brackets[0];
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (out.size() > kMaxRenderedLength) break;  // the caller cuts here anyway
    if (!first) out += ", ";
    first = false;
    if (!is_array) out += '"' + excerpt(it.key(), kMaxRenderedLength) + "\": ";
    render_into(it.value(), depth + 1, out);
  }
  out += brackets[1];
}

/// `text` cut to `length` bytes (not inside a UTF-8 sequence) with "..." appended.
std::string cut(std::string text, std::size_t length) {
  if (text.size() <= length) return text;
  return text.substr(0, utf8_prefix_length(text, length - 3)) + "...";
}

std::string join(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- JsonReader

JsonReader::JsonReader(const nlohmann::json& root, const std::filesystem::path& file)
    : JsonReader(root, std::string(), file) {}

JsonReader::JsonReader(const nlohmann::json& value, std::string path, const std::filesystem::path& file)
    : value_(&value), root_(std::move(path)), file_(&file) {}

JsonReader::JsonReader(const FlatJson& flat, std::uint32_t node, std::string path, const std::filesystem::path& file)
    : value_(nullptr), flat_(&flat), node_(node), root_(std::move(path)), file_(&file) {}

const nlohmann::json& JsonReader::json() const {
  if (value_ == nullptr) throw std::logic_error("JsonReader::json() of a flat value");  // a reader's bug
  return *value_;
}

JsonReader::Type JsonReader::type() const { return flat_ ? flat_->node(node_).type : value_->type(); }

bool JsonReader::is_number() const {
  const Type t = type();
  return t == Type::number_integer || t == Type::number_unsigned || t == Type::number_float;
}

bool JsonReader::is_integer() const {
  const Type t = type();
  return t == Type::number_integer || t == Type::number_unsigned;
}

bool JsonReader::is_integral() const {
  if (is_integer()) return true;
  if (type() != Type::number_float) return false;
  const double v = number_value();
  constexpr double kTwo63 = 9223372036854775808.0;
  return std::isfinite(v) && v == std::trunc(v) && v >= -kTwo63 && v < kTwo63;
}

std::size_t JsonReader::size() const {
  if (flat_) {
    const FlatJson::Node& n = flat_->node(node_);
    return n.type == Type::array || n.type == Type::object ? n.size : 0;
  }
  return value_->is_array() || value_->is_object() ? value_->size() : 0;
}

std::int64_t JsonReader::int64() const {
  assert(is_integral());
  if (!is_integer()) return static_cast<std::int64_t>(number_value());  // 3.0: exact below 2⁶³
  if (!flat_) return value_->get<std::int64_t>();
  const FlatJson::Node& n = flat_->node(node_);
  // nlohmann's get<int64_t> of an unsigned value is the same cast
  return n.type == Type::number_integer ? n.number_integer : static_cast<std::int64_t>(n.number_unsigned);
}

double JsonReader::number_value() const {
  if (!flat_) return value_->get<double>();
  const FlatJson::Node& n = flat_->node(node_);
  switch (n.type) {
    case Type::number_integer: return static_cast<double>(n.number_integer);
    case Type::number_unsigned: return static_cast<double>(n.number_unsigned);
    default: return n.number_float;
  }
}

std::string_view JsonReader::string_value() const {
  return flat_ ? flat_->string(flat_->node(node_)) : std::string_view(value_->get_ref<const std::string&>());
}

std::string JsonReader::path() const {
  std::string out = root_;
  for (int i = 0; i < depth_; ++i) {
    const Segment& segment = segments_[i];
    if (segment.key == nullptr) {
      out += '[' + std::to_string(segment.size) + ']';
    } else {
      // The key is user text when it is an unknown field: cut, so that the path stays readable.
      if (!out.empty()) out += '.';
      out += excerpt(std::string_view(segment.key, segment.size));
    }
  }
  return out;
}

void JsonReader::push_segment(const char* key, std::size_t key_size_or_index) {
  if (depth_ == kSegments) {
    root_ = path();
    depth_ = 0;
  }
  segments_[depth_++] = Segment{key, key_size_or_index};
}

void JsonReader::fail(std::string_view message) const {
  const std::string here = path();
  const std::string where = here.empty() ? "(top level)" : here;
  throw InputError(file_->string() + ": " + where + ": " + std::string(message));
}

void JsonReader::expected(std::string_view what) const {
  fail("expected " + std::string(what) + ", got " + render());
}

std::string JsonReader::render() const {
  if (flat_) {  // a message only: the value as a document, rendered as one would be
    const nlohmann::json value = flat_->to_json(node_);
    return JsonReader(value, std::string(), *file_).render();
  }
  std::string text;
  render_into(*value_, 0, text);
  // A lone string is already cut by excerpt(), which says how long it was; cut the rest here.
  return value_->is_string() ? text : cut(std::move(text), kMaxRenderedLength);
}

double JsonReader::number() const {
  if (!is_number()) expected("a number");
  const double v = number_value();
  if (!std::isfinite(v)) expected("a finite number");
  return v;
}

double JsonReader::positive() const {
  const double v = number();
  if (!(v > 0.0)) expected("a positive number");
  return v;
}

double JsonReader::non_negative() const {
  const double v = number();
  if (!(v >= 0.0)) expected("a non-negative number");
  return v;
}

int JsonReader::integer() const {
  if (!is_integral()) expected("an integer");
  constexpr auto lo = static_cast<std::int64_t>(std::numeric_limits<int>::min());
  constexpr auto hi = static_cast<std::int64_t>(std::numeric_limits<int>::max());
  const bool fits = type() == Type::number_unsigned
                        ? static_cast<std::uint64_t>(int64()) <= static_cast<std::uint64_t>(hi)
                        : int64() >= lo && int64() <= hi;
  if (!fits) expected("an integer within the range of a 32-bit int");
  return static_cast<int>(int64());
}

int JsonReader::integer_at_least(int min) const {
  const int v = integer();
  if (v < min) expected("an integer ≥ " + std::to_string(min));
  return v;
}

bool JsonReader::boolean() const {
  if (type() != Type::boolean) expected("true or false");
  return flat_ ? flat_->node(node_).boolean : value_->get<bool>();
}

std::string JsonReader::string() const {
  if (type() != Type::string) expected("a string");
  return std::string(string_value());
}

std::string JsonReader::non_empty_string() const {
  std::string s = string();
  if (s.empty()) expected("a non-empty string");
  return s;
}

std::string JsonReader::name() const {
  std::string s = non_empty_string();
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) expected("a name without control characters");
  return s;
}

Vec3 JsonReader::vec3() const {
  if (!is_array() || size() != 3) expected("an array of 3 numbers");
  // The common case without a reader per element; a bad element is read through one for the message.
  if (flat_) {
    const std::uint32_t first = FlatJson::first_child(node_);
    const std::uint32_t second = flat_->next_sibling(first), third = flat_->next_sibling(second);
    const JsonReader items[3] = {flat_member(first), flat_member(second), flat_member(third)};
    if (items[0].is_number() && items[1].is_number() && items[2].is_number()) {
      const Vec3 v(items[0].number_value(), items[1].number_value(), items[2].number_value());
      if (v.allFinite()) return v;
    }
  } else {
    const auto& items = value_->get_ref<const nlohmann::json::array_t&>();
    if (items[0].is_number() && items[1].is_number() && items[2].is_number()) {
      const Vec3 v(items[0].get<double>(), items[1].get<double>(), items[2].get<double>());
      if (v.allFinite()) return v;
    }
  }
  return {element(0).number(), element(1).number(), element(2).number()};
}

Vec3 JsonReader::direction() const {
  const std::optional<Vec3> unit = normalized_direction(vec3());
  if (!unit) expected("a non-zero vector");
  return *unit;
}

std::vector<JsonReader> JsonReader::array(std::optional<std::size_t> size) const {
  if (!is_array()) expected(size ? "an array of " + std::to_string(*size) + " elements" : "an array");
  const std::size_t n = this->size();
  if (size && n != *size) expected("an array of " + std::to_string(*size) + " elements");
  std::vector<JsonReader> items;
  items.reserve(n);
  if (flat_) {  // one walk over the children, not one per element
    std::uint32_t child = FlatJson::first_child(node_);
    for (std::size_t i = 0; i < n; ++i, child = flat_->next_sibling(child)) {
      items.push_back(flat_member(child));
      items.back().segments_[items.back().depth_ - 1] = Segment{nullptr, i};
    }
    return items;
  }
  for (std::size_t i = 0; i < n; ++i) items.push_back(element(i));
  return items;
}

std::vector<JsonReader> JsonReader::non_empty_array() const {
  auto items = array();
  if (items.empty()) expected("a non-empty array");
  return items;
}

JsonReader JsonReader::child(std::string_view key) const {
  if (flat_) {
    const std::uint32_t node = flat_->node(node_).type == Type::object ? flat_->find(node_, key) : 0;
    if (node == 0) document_would_throw([&](const nlohmann::json& v) { v.at(std::string(key)); });
    return flat_member(node);
  }
  const auto it = value_->find(key);
  if (it == value_->end()) value_->at(std::string(key));  // throws nlohmann's out_of_range, as before
  return member(it);
}

void JsonReader::document_would_throw(const std::function<void(const nlohmann::json&)>& access) const {
  access(flat_->to_json(node_));  // throws, as it would on the document: a missing key or index is a bug
  throw std::logic_error("JsonReader: an access that fails on a flat value succeeded on its document");
}

JsonReader JsonReader::member(nlohmann::json::const_iterator it) const {
  JsonReader out = *this;
  out.value_ = &it.value();
  out.push_segment(it.key().data(), it.key().size());  // the document's own key: it outlives the reader
  return out;
}

JsonReader JsonReader::flat_member(std::uint32_t node) const {
  JsonReader out = *this;
  out.node_ = node;
  const FlatJson::Node& n = flat_->node(node);
  if (flat_->node(node_).type == Type::object) {
    const std::string_view key = flat_->key(n);
    out.push_segment(key.data(), key.size());
  } else {
    out.push_segment(nullptr, 0);  // an element: the caller sets its index
  }
  return out;
}

std::string JsonReader::child_path(std::string_view key) const {
  const std::string here = path();
  const std::string name = excerpt(key);
  return here.empty() ? name : here + "." + name;
}

JsonReader JsonReader::element(std::size_t index) const {
  if (flat_) {
    if (!is_array() || index >= size()) document_would_throw([&](const nlohmann::json& v) { v.at(index); });
    JsonReader out = flat_member(flat_->element(node_, index));
    out.segments_[out.depth_ - 1] = Segment{nullptr, index};
    return out;
  }
  JsonReader out = *this;
  out.value_ = &value_->at(index);
  out.push_segment(nullptr, index);
  return out;
}

// ---------------------------------------------------------------- ObjectReader

ObjectReader::ObjectReader(const JsonReader& value, std::span<const std::string_view> allowed,
                           std::string_view what)
    : ObjectReader(value) {
  allow_only(allowed, what);
}

ObjectReader::ObjectReader(const JsonReader& value) : value_(value) {
  if (!value.is_object()) value.expected("an object");
}

namespace {

bool is_allowed(std::string_view key, std::span<const std::string_view> allowed) {
  for (std::string_view name : allowed) {
    if (key == name) return true;
  }
  return false;
}

}  // namespace

void ObjectReader::allow_only(std::span<const std::string_view> allowed, std::string_view what) {
  what_ = what;
  const auto refuse = [&](const JsonReader& field) {
    const std::string owner = what_.empty() ? "" : " for " + what_;
    field.fail("unknown field" + owner + " (expected one of: " + join(allowed) + ")");
  };
  if (const FlatJson* flat = value_.flat_) {
    // The document names the first unknown key in key order (its members are sorted): so does this.
    std::uint32_t first_unknown = 0;
    const std::uint32_t end = flat->node(value_.node_).end;
    for (std::uint32_t child = FlatJson::first_child(value_.node_); child < end; child = flat->next_sibling(child)) {
      const std::string_view key = flat->key(flat->node(child));
      if (!is_allowed(key, allowed) && (first_unknown == 0 || key < flat->key(flat->node(first_unknown)))) {
        first_unknown = child;
      }
    }
    if (first_unknown != 0) refuse(value_.flat_member(first_unknown));
    return;
  }
  for (auto it = value_.json().begin(); it != value_.json().end(); ++it) {
    if (!is_allowed(it.key(), allowed)) refuse(value_.member(it));
  }
}

bool ObjectReader::has(std::string_view key) const {
  if (value_.flat_) return value_.flat_->find(value_.node_, key) != 0;
  return value_.json().contains(key);
}

std::optional<JsonReader> ObjectReader::find(std::string_view key) const {
  if (const FlatJson* flat = value_.flat_) {
    const std::uint32_t node = flat->find(value_.node_, key);
    if (node == 0) return std::nullopt;
    return value_.flat_member(node);
  }
  const auto it = value_.json().find(key);
  if (it == value_.json().end()) return std::nullopt;
  return value_.member(it);
}

JsonReader ObjectReader::at(std::string_view key) const {
  if (auto field = find(key)) return *std::move(field);
  const std::string owner = what_.empty() ? "" : " for " + what_;
  JsonReader missing = value_;  // only its path is read: the field's would-be path
  missing.root_ = value_.child_path(key);
  missing.depth_ = 0;
  missing.fail("required field" + owner + " is missing");
}

}  // namespace affix
