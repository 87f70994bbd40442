#pragma once
// Typed reading of a parsed JSON document that always knows where it is: every value carries the file
// it came from and its path in dot/bracket form (`bodies[3].shape.box`), so that every rejection is one
// line naming both (DESIGN §4):
//
//   <file>: <path>: expected <what>, got <short rendering of the value>
//
// A value is read from an nlohmann document or from a FlatJson (json_flat.hpp: a scene's bodies and
// joints when a large file is loaded), through the same methods and with the same messages.
//
// Nothing here knows about scenes; the scene readers say what each field must be.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/scene/json_flat.hpp"

namespace affix {

/// One JSON value and where it sits. Cheap to copy; refers to (does not own) the document and the
/// file path, which must outlive it. Its path is kept as a few segments (object keys, which refer to the
/// document's own keys, and array indices) and written out only for a message: a 10⁶-body scene reads
/// tens of millions of values, and a path string each was a fifth of its load time.
class JsonReader {
 public:
  /// The document root of `file`.
  JsonReader(const nlohmann::json& root, const std::filesystem::path& file);
  /// A value that sits at `path` in `file` but is read apart from its document: a solver's block of
  /// settings, which the scene keeps raw for the solver to read (messages name its place in the file).
  JsonReader(const nlohmann::json& value, std::string path, const std::filesystem::path& file);
  /// Node `node` of a flat value, sitting at `path` in `file`.
  JsonReader(const FlatJson& flat, std::uint32_t node, std::string path, const std::filesystem::path& file);

  /// The document value (only for a reader made from a document: solvers' settings, meshes.json).
  const nlohmann::json& json() const;
  /// The dot/bracket path (empty at the document root).
  std::string path() const;
  const std::filesystem::path& file() const { return *file_; }

  /// Throws InputError `<file>: <path>: <message>`.
  [[noreturn]] void fail(std::string_view message) const;
  /// Throws InputError `<file>: <path>: expected <what>, got <value>`.
  [[noreturn]] void expected(std::string_view what) const;
  /// The value as a short, one-line piece of JSON for messages.
  std::string render() const;

  // The form of the value, for readers that accept more than one.
  bool is_null() const { return type() == Type::null; }
  bool is_number() const;
  bool is_integer() const;  ///< a JSON number without fraction or exponent
  /// An integer's value, written as an integer or as a number with no fractional part (3, 3.0, 3e0) and
  /// within ±2⁶³: what every integer field of the format accepts (JSON has one number type, and
  /// Python's json writes a float 3.0 where JavaScript writes 3).
  bool is_integral() const;
  bool is_array() const { return type() == Type::array; }
  bool is_object() const { return type() == Type::object; }
  /// The elements of an array or the members of an object; 0 for any other value.
  std::size_t size() const;
  /// An integral value as a 64-bit one, as nlohmann converts it (requires is_integral()).
  std::int64_t int64() const;

  // Scalars. Numbers must be finite; a bool is not a number and an integer is a valid double.
  double number() const;
  double positive() const;      ///< > 0
  double non_negative() const;  ///< ≥ 0
  int integer() const;          ///< an integral number (is_integral) that fits an int
  int integer_at_least(int min) const;
  bool boolean() const;
  std::string string() const;
  std::string non_empty_string() const;
  /// A non-empty string without control characters (line breaks, tabs, NUL…): a name, which the run
  /// output writes into one CSV field of one line.
  std::string name() const;

  // Vectors: arrays of exactly three numbers.
  Vec3 vec3() const;
  Vec3 direction() const;  ///< non-zero, returned normalised

  /// The elements of an array (of exactly `size` elements when given).
  std::vector<JsonReader> array(std::optional<std::size_t> size = std::nullopt) const;
  std::vector<JsonReader> non_empty_array() const;

  /// A child of this value (which the caller knows to be an object / array).
  JsonReader child(std::string_view key) const;
  JsonReader element(std::size_t index) const;

 private:
  friend class ObjectReader;  // reports a missing field at the path it would have had
  using Type = nlohmann::json::value_t;
  Type type() const;
  double number_value() const;  ///< requires is_number()
  std::string_view string_value() const;  ///< requires type() == string
  std::string child_path(std::string_view key) const;
  /// The member `it` points at (an iterator into this object): found once, not looked up again.
  JsonReader member(nlohmann::json::const_iterator it) const;
  /// A child() or element() that fails on a flat value throws what the document's at() throws.
  [[noreturn]] void document_would_throw(const std::function<void(const nlohmann::json&)>& access) const;
  /// The member at flat node `node` (a child of this object).
  JsonReader flat_member(std::uint32_t node) const;
  /// Appends one segment; when they are full, the path so far becomes the root text.
  void push_segment(const char* key, std::size_t key_size_or_index);

  /// A key (key != nullptr, `size` bytes) or an array index (key == nullptr, index `size`).
  struct Segment {
    const char* key;
    std::size_t size;
  };
  static constexpr int kSegments = 6;  // a scene's values sit at most about five levels below a root

  const nlohmann::json* value_;   // null when the value is a flat one
  const FlatJson* flat_ = nullptr;
  std::uint32_t node_ = 0;         // the flat value's node
  std::string root_;  // the path down to the first segment ("bodies[7]", "settings.mabd", or empty)
  Segment segments_[kSegments];
  int depth_ = 0;
  const std::filesystem::path* file_;
};

/// A JSON object, and the check that it has no fields but the allowed ones. `what` names the owner in
/// messages when the allowed set depends on it (e.g. "a hinge joint").
class ObjectReader {
 public:
  /// Requires an object whose keys are all in `allowed` (a list in place or any contiguous range: no
  /// copy is made, since a scene reads one of these per body, joint and nested object).
  ObjectReader(const JsonReader& value, std::initializer_list<std::string_view> allowed, std::string_view what = {})
      : ObjectReader(value, std::span<const std::string_view>(allowed.begin(), allowed.size()), what) {}
  ObjectReader(const JsonReader& value, std::span<const std::string_view> allowed, std::string_view what = {});
  /// Requires an object, and leaves the key check to allow_only(): for objects whose allowed fields
  /// depend on one of their own fields (a joint's `type`).
  explicit ObjectReader(const JsonReader& value);
  void allow_only(std::span<const std::string_view> allowed, std::string_view what = {});

  const JsonReader& self() const { return value_; }
  bool has(std::string_view key) const;
  /// The field if present.
  std::optional<JsonReader> find(std::string_view key) const;
  /// The field; its absence is an error at its would-be path.
  JsonReader at(std::string_view key) const;

 private:
  JsonReader value_;
  std::string what_;
};

}  // namespace affix
