#include "affix/scene/json_reader.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "affix/error.hpp"

namespace affix {

namespace {

constexpr std::size_t kMaxRenderedLength = 40;  // keeps a message on one readable line

std::string join(const std::vector<std::string_view>& names) {
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
    : value_(&value), path_(std::move(path)), file_(&file) {}

void JsonReader::fail(std::string_view message) const {
  const std::string where = path_.empty() ? "(top level)" : path_;
  throw InputError(file_->string() + ": " + where + ": " + std::string(message));
}

void JsonReader::expected(std::string_view what) const {
  fail("expected " + std::string(what) + ", got " + render());
}

std::string JsonReader::render() const {
  // JSON itself cannot hold inf or NaN, but an overflowing literal (1e999) parses to inf.
  if (value_->is_number_float() && !std::isfinite(value_->get<double>())) {
    const double v = value_->get<double>();
    return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  }
  std::string text = value_->dump();
  if (text.size() > kMaxRenderedLength) text = text.substr(0, kMaxRenderedLength - 3) + "...";
  return text;
}

double JsonReader::number() const {
  if (!value_->is_number()) expected("a number");
  const double v = value_->get<double>();
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
  if (!value_->is_number_integer()) expected("an integer");
  constexpr auto lo = static_cast<std::int64_t>(std::numeric_limits<int>::min());
  constexpr auto hi = static_cast<std::int64_t>(std::numeric_limits<int>::max());
  const bool fits = value_->is_number_unsigned()
                        ? value_->get<std::uint64_t>() <= static_cast<std::uint64_t>(hi)
                        : value_->get<std::int64_t>() >= lo && value_->get<std::int64_t>() <= hi;
  if (!fits) expected("an integer within the range of a 32-bit int");
  return static_cast<int>(value_->get<std::int64_t>());
}

int JsonReader::integer_at_least(int min) const {
  const int v = integer();
  if (v < min) expected("an integer ≥ " + std::to_string(min));
  return v;
}

bool JsonReader::boolean() const {
  if (!value_->is_boolean()) expected("true or false");
  return value_->get<bool>();
}

std::string JsonReader::string() const {
  if (!value_->is_string()) expected("a string");
  return value_->get<std::string>();
}

std::string JsonReader::non_empty_string() const {
  std::string s = string();
  if (s.empty()) expected("a non-empty string");
  return s;
}

Vec3 JsonReader::vec3() const {
  if (!value_->is_array() || value_->size() != 3) expected("an array of 3 numbers");
  const auto items = array();
  return {items[0].number(), items[1].number(), items[2].number()};
}

Vec3 JsonReader::direction() const {
  const Vec3 v = vec3();
  const double n = v.norm();
  if (!(n > 0.0) || !std::isfinite(n)) expected("a non-zero vector");
  return v / n;
}

std::vector<JsonReader> JsonReader::array(std::optional<std::size_t> size) const {
  if (!value_->is_array()) expected(size ? "an array of " + std::to_string(*size) + " elements" : "an array");
  if (size && value_->size() != *size) expected("an array of " + std::to_string(*size) + " elements");
  std::vector<JsonReader> items;
  items.reserve(value_->size());
  for (std::size_t i = 0; i < value_->size(); ++i) items.push_back(element(i));
  return items;
}

std::vector<JsonReader> JsonReader::non_empty_array() const {
  auto items = array();
  if (items.empty()) expected("a non-empty array");
  return items;
}

JsonReader JsonReader::child(std::string_view key) const {
  return JsonReader(value_->at(std::string(key)), child_path(key), *file_);
}

std::string JsonReader::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

JsonReader JsonReader::element(std::size_t index) const {
  return JsonReader(value_->at(index), path_ + "[" + std::to_string(index) + "]", *file_);
}

// ---------------------------------------------------------------- ObjectReader

ObjectReader::ObjectReader(const JsonReader& value, std::vector<std::string_view> allowed,
                           std::string_view what)
    : ObjectReader(value) {
  allow_only(allowed, what);
}

ObjectReader::ObjectReader(const JsonReader& value) : value_(value) {
  if (!value.json().is_object()) value.expected("an object");
}

void ObjectReader::allow_only(const std::vector<std::string_view>& allowed, std::string_view what) {
  what_ = what;
  for (const auto& item : value_.json().items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || item.key() == name;
    if (known) continue;
    const std::string owner = what_.empty() ? "" : " for " + what_;
    value_.child(item.key()).fail("unknown field" + owner + " (expected one of: " + join(allowed) + ")");
  }
}

bool ObjectReader::has(std::string_view key) const { return value_.json().contains(key); }

std::optional<JsonReader> ObjectReader::find(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return value_.child(key);
}

JsonReader ObjectReader::at(std::string_view key) const {
  if (!has(key)) {
    const std::string owner = what_.empty() ? "" : " for " + what_;
    const JsonReader missing(value_.json(), value_.child_path(key), *value_.file_);
    missing.fail("required field" + owner + " is missing");
  }
  return value_.child(key);
}

}  // namespace affix
