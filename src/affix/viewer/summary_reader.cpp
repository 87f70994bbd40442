#include "affix/viewer/summary_reader.hpp"

#include <string_view>

#include "affix/io/json_file.hpp"
#include "affix/scene/json_reader.hpp"

namespace affix::viewer {

namespace {

using nlohmann::json;

enum class Kind { kString, kStringOrNull, kBoolean, kCount, kNumberOrNull };

struct Key {
  std::string_view name;
  Kind kind;
};

constexpr Key kKnown[] = {
    {"scene", Kind::kString},           {"solver", Kind::kString},
    {"out_dir", Kind::kString},         {"error", Kind::kStringOrNull},
    {"completed", Kind::kBoolean},      {"steps", Kind::kCount},
    {"planned_steps", Kind::kCount},    {"bodies", Kind::kCount},
    {"max_iterations", Kind::kCount},   {"iteration_cap_hits", Kind::kCount},
    {"warnings", Kind::kCount},         {"wall_s", Kind::kNumberOrNull},
    {"median_ms", Kind::kNumberOrNull}, {"max_ms", Kind::kNumberOrNull},
    {"max_joint_error", Kind::kNumberOrNull}, {"min_distance", Kind::kNumberOrNull},
    {"mean_iterations", Kind::kNumberOrNull}, {"simulated_time", Kind::kNumberOrNull},
    {"max_strain", Kind::kNumberOrNull}};

void check(const JsonReader& value, Kind kind) {
  const json& v = value.json();
  switch (kind) {
    case Kind::kString:
      if (!v.is_string()) value.expected("a string");
      return;
    case Kind::kStringOrNull:
      if (!v.is_string() && !v.is_null()) value.expected("a string or null");
      return;
    case Kind::kBoolean:
      if (!v.is_boolean()) value.expected("true or false");
      return;
    case Kind::kCount:
      if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
        value.expected("a whole number ≥ 0");
      return;
    case Kind::kNumberOrNull:
      if (!v.is_number() && !v.is_null()) value.expected("a number or null");
      return;
  }
}

}  // namespace

json read_summary(const std::filesystem::path& file) {
  json root = read_json_file(file, kMaxSummaryBytes);
  const JsonReader doc(root, file);
  if (!root.is_object()) doc.expected("an object (the summary of a run)");
  for (const Key& key : kKnown)
    if (root.contains(key.name)) check(doc.child(key.name), key.kind);
  return root;
}

}  // namespace affix::viewer
