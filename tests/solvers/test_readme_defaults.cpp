// The README's scene reference repeats, for users, the defaults whose only home is the member
// initialisers of scene.hpp and of each solver's settings (solvers/<name>/, for `settings.<name>`;
// STYLE.md practice 8). This test keeps the two in step: every row of a
// README table headed `| field | type | default | meaning |` whose field is a backticked JSON path and
// whose default is a backticked JSON literal is compared with what the code gives a file that leaves
// that field out.
//
// How a row is checked. A few small scene files are parsed with the real loader (parse_scene) and
// written back with scene_to_json, which writes every field, defaults included. A row is looked up
// (element 0 for `[]`) in the first of those scenes that does not set the field itself and whose written
// form has it. Shape-specific rows name their shapes after the path (`bodies[].shape.resolution`
// (sphere, capsule)); they are checked on a scene of each shape named. A field that no written scene
// shows (an optional one that the writer leaves out when absent, such as `bodies[].mass`) is checked
// the other way round: writing the documented literal into the file must give the same scene as
// leaving it out. So are the fields of a solver's block (`settings.ipc.dhat`): the scene keeps and
// writes that block as the file had it, so "the same scene" there means the same settings as the
// solver reads them. Rows that neither way can check are skipped, listed, and counted; fewer than
// kMinimumCheckedRows checked rows fail the test, so that it cannot pass by checking nothing.
//
// It lives with the solvers because it needs every solver's settings reader (the registry's level).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/scene/scene_loader.hpp"
#include "affix/scene/scene_writer.hpp"
#include "affix/solvers/impulse/impulse_settings.hpp"
#include "affix/solvers/compliant/compliant_settings.hpp"
#include "affix/solvers/ipc/ipc_settings.hpp"
#include "affix/solvers/mabd/mabd_settings.hpp"

namespace affix {
namespace {

using nlohmann::json;

constexpr double kRelativeTolerance = 1e-12;
constexpr std::size_t kMinimumCheckedRows = 20;
const std::string kReadme = std::string(AFFIX_SOURCE_DIR) + "/README.md";
const char* const kFieldTableHeader = "| field | type | default | meaning |";
const char* const kSceneFile = "readme_defaults.json";

// ---------------------------------------------------------------- README rows

struct Row {
  int line = 0;
  std::string path;       ///< `bodies[].shape.resolution`
  std::string qualifier;  ///< text after the path in the first cell, e.g. "(sphere, capsule)"
  json literal;           ///< the documented default
  std::string text;       ///< the first and third cells, for messages
};

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") + 1 - first);
}

/// The cells of a markdown table line `| a | b | c |`, trimmed.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(trim(line));
  std::string cell;
  std::getline(in, cell, '|');  // before the leading bar
  while (std::getline(in, cell, '|')) out.push_back(trim(cell));
  if (!out.empty() && out.back().empty()) out.pop_back();  // after the trailing bar
  return out;
}

/// The rows with a literal default of every field table; fails the test on a malformed default cell.
std::vector<Row> read_rows(std::istream& in, int& rows_without_literal) {
  static const std::regex kPath(R"(^[A-Za-z_][A-Za-z0-9_]*(\[\])?(\.[A-Za-z_][A-Za-z0-9_]*(\[\])?)*$)");
  static const std::regex kSeparator(R"(^\|( *:?-+:? *\|)+$)");
  std::vector<Row> rows;
  bool in_table = false;
  bool field_table = false;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (trim(line).rfind('|', 0) != 0) {
      in_table = false;
      continue;
    }
    if (!in_table) {  // a table's first line is its header
      in_table = true;
      field_table = trim(line) == kFieldTableHeader;
      continue;
    }
    if (!field_table || std::regex_match(trim(line), kSeparator)) continue;
    // A field table row that this reader cannot take apart would go unchecked: it is an error.
    const std::string at = std::string(kReadme) + ":" + std::to_string(number);
    const std::vector<std::string> c = cells(line);
    if (c.size() != 4) {
      ADD_FAILURE() << at << ": a field table row needs 4 cells, this one has " << c.size() << ": " << line;
      continue;
    }
    const std::size_t close = c[0].size() > 1 && c[0][0] == '`' ? c[0].find('`', 1) : std::string::npos;
    const std::string path = close == std::string::npos ? "" : c[0].substr(1, close - 1);
    if (!std::regex_match(path, kPath)) {
      ADD_FAILURE() << at << ": the field cell '" << c[0] << "' is not a backticked JSON path";
      continue;
    }
    const std::string& def = c[2];
    const std::string where = at + ": " + c[0];
    if (def == "required" || def == "absent" || def == "—") {
      ++rows_without_literal;
      continue;
    }
    if (def.size() < 3 || def.front() != '`' || def.back() != '`') {
      ADD_FAILURE() << where << ": default cell '" << def
                    << "' is neither a backticked JSON literal nor required / absent / —";
      continue;
    }
    Row row{number, path, trim(c[0].substr(close + 1)), json(), c[0] + " = " + def};
    try {
      row.literal = json::parse(def.substr(1, def.size() - 2));
    } catch (const json::exception& e) {
      ADD_FAILURE() << where << ": default " << def << " is not a JSON literal (" << e.what() << ")";
      continue;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// ---------------------------------------------------------------- JSON paths and comparison

/// `bodies[].shape.box` → {"bodies[]", "shape", "box"}.
std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream in(path);
  for (std::string s; std::getline(in, s, '.');) out.push_back(s);
  return out;
}

bool is_array_segment(const std::string& s) { return s.size() > 2 && s.ends_with("[]"); }
std::string key_of(const std::string& s) { return is_array_segment(s) ? s.substr(0, s.size() - 2) : s; }

/// The value at `path`, taking element 0 of every array; nullptr when it is not there.
const json* lookup(const json& doc, const std::string& path) {
  const json* node = &doc;
  for (const std::string& s : segments(path)) {
    if (!node->is_object() || !node->contains(key_of(s))) return nullptr;
    node = &(*node)[key_of(s)];
    if (is_array_segment(s)) {
      if (!node->is_array() || node->empty()) return nullptr;
      node = &(*node)[0];
    }
  }
  return node;
}

/// Sets `path` (element 0 of every array, which must exist; objects are created) to `value`.
bool insert(json& doc, const std::string& path, const json& value) {
  json* node = &doc;
  const std::vector<std::string> s = segments(path);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!node->is_object()) return false;
    json& child = (*node)[key_of(s[i])];
    if (is_array_segment(s[i])) {
      if (!child.is_array() || child.empty()) return false;
      node = &child[0];
    } else {
      node = &child;
    }
    if (i + 1 < s.size() && node->is_null()) *node = json::object();
  }
  *node = value;
  return true;
}

/// Every path a document sets, array elements written `[]`: the fields a scene file gives itself.
void collect_paths(const json& node, const std::string& path, std::set<std::string>& out) {
  if (!path.empty()) out.insert(path);
  if (node.is_object()) {
    for (const auto& item : node.items()) {
      collect_paths(item.value(), path.empty() ? item.key() : path + "." + item.key(), out);
    }
  } else if (node.is_array()) {
    for (const json& element : node) collect_paths(element, path + "[]", out);
  }
}

bool near(double a, double b) {
  return a == b || std::abs(a - b) <= kRelativeTolerance * std::max(std::abs(a), std::abs(b));
}

/// Structural equality with numbers compared to a relative tolerance (1 and 1.0 are equal).
bool same(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return near(a.get<double>(), b.get<double>());
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& item : a.items()) {
      if (!b.contains(item.key()) || !same(item.value(), b[item.key()])) return false;
    }
    return true;
  }
  return a == b;
}

// ---------------------------------------------------------------- scenes the code writes

/// A scene file small enough to leave almost every field out, and what the code makes of it.
struct Variant {
  std::string tag;           ///< the shape of body 0, or what the variant adds
  json file;                 ///< the scene file
  std::set<std::string> given;  ///< the paths the file sets itself
  Scene scene;               ///< parse_scene(file)
  json written;              ///< scene_to_json(scene)
};

Variant make_variant(std::string tag, json file) {
  Variant v{std::move(tag), std::move(file), {}, Scene(), json()};
  collect_paths(v.file, "", v.given);
  v.scene = parse_scene(v.file, kSceneFile);
  v.written = scene_to_json(v.scene);
  return v;
}

// ---------------------------------------------------------------- solver settings

/// Each solver's `settings.<name>` compared as the solver reads it (which throws InputError for a block
/// it refuses): a new solver adds one line.
struct SolverSettings {
  std::string_view solver;
  bool (*same)(const Scene& a, const Scene& b);
};
constexpr SolverSettings kSolverSettings[] = {
    {"ipc", [](const Scene& a, const Scene& b) {
       return read_ipc_settings(a.settings, a.file) == read_ipc_settings(b.settings, b.file);
     }},
    {"mabd", [](const Scene& a, const Scene& b) {
       return read_mabd_settings(a.settings, a.file) == read_mabd_settings(b.settings, b.file);
     }},
    {"impulse", [](const Scene& a, const Scene& b) {
       return read_impulse_settings(a.settings, a.file) == read_impulse_settings(b.settings, b.file);
     }},
    {"compliant", [](const Scene& a, const Scene& b) {
       return read_compliant_settings(a.settings, a.file) == read_compliant_settings(b.settings, b.file);
     }},
};
static_assert(std::size(kSolverSettings) == std::size(kSolverNames), "every solver's settings are compared");

bool same_solver_settings(const Scene& a, const Scene& b) {
  for (const SolverSettings& s : kSolverSettings) {
    if (!s.same(a, b)) return false;
  }
  return true;
}

/// A written scene without its solver blocks, which it writes as the file had them: those compare by
/// same_solver_settings instead.
json without_solver_settings(json written) {
  for (std::string_view solver : kSolverNames) written["settings"].erase(std::string(solver));
  return written;
}

/// The base scene of the brief: one box body and a default ground; then one variant per shape, and
/// the minimal entries that make the writer show the fields of forces, kinematic bodies and joints.
std::vector<Variant> variants() {
  const json base = json::parse(R"({"bodies": [{"name": "b", "shape": {"box": [1, 1, 1]}}], "ground": {}})");
  const auto with = [&](const std::string& path, const json& value) {
    json file = base;
    EXPECT_TRUE(insert(file, path, value)) << path;
    return file;
  };
  const auto with_shape = [&](const char* shape) { return with("bodies[].shape", json::parse(shape)); };
  std::vector<Variant> out;
  out.push_back(make_variant("box", base));
  out.push_back(make_variant("sphere", with_shape(R"({"sphere": 0.5})")));
  out.push_back(make_variant("capsule", with_shape(R"({"capsule": {"radius": 0.5, "length": 1}})")));
  out.push_back(make_variant("cylinder", with_shape(R"({"cylinder": {"radius": 0.5, "length": 1}})")));
  out.push_back(make_variant("torus", with_shape(R"({"torus": {"major": 1, "minor": 0.25}})")));
  out.push_back(make_variant("mesh", with_shape(R"({"mesh": {"file": "body.obj"}})")));
  // A force entry needs force or torque: one variant with each leaves the other at its default.
  out.push_back(make_variant("force", with("forces", json::parse(R"([{"body": "b", "force": [0, 0, 1]}])"))));
  out.push_back(make_variant("torque", with("forces", json::parse(R"([{"body": "b", "torque": [0, 0, 1]}])"))));
  out.push_back(make_variant("kinematic velocity",
                             with("bodies[].kinematic", json::parse(R"({"velocity": [1, 0, 0]})"))));
  out.push_back(make_variant("kinematic angular_velocity",
                             with("bodies[].kinematic", json::parse(R"({"angular_velocity": [0, 0, 1]})"))));
  out.push_back(make_variant(
      "keyframes", with("bodies[].kinematic", json::parse(R"({"keyframes": [{"time": 1, "position": [0, 0, 1]}]})"))));
  out.push_back(make_variant(
      "joint", with("joints", json::parse(R"([{"type": "ball", "body1": "b", "body2": "world", "anchor": [0, 0, 0]}])"))));
  return out;
}

// ---------------------------------------------------------------- checking one row

enum class Outcome { checked, skipped };

/// Writing the literal into the file must change nothing: for fields the writer leaves out when absent.
Outcome check_by_insertion(const Row& row, const Variant& v, std::string& why) {
  json file = v.file;
  if (!insert(file, row.path, row.literal)) {
    why = "no place for it in the '" + v.tag + "' scene";
    return Outcome::skipped;
  }
  json written;
  bool same_settings = false;
  try {
    const Scene scene = parse_scene(file, kSceneFile);
    written = scene_to_json(scene);
    same_settings = same_solver_settings(scene, v.scene);  // reads every block: the solvers check them
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (message.find("unknown field") != std::string::npos) {
      ADD_FAILURE() << kReadme << ":" << row.line << ": " << row.text
                    << ": the loader does not know this field: " << message;
      return Outcome::checked;
    }
    why = "the loader rejects the literal alone: " + message;
    return Outcome::skipped;
  }
  EXPECT_TRUE(same(without_solver_settings(written), without_solver_settings(v.written)) && same_settings)
      << kReadme << ":" << row.line << ": " << row.text << ": a file that sets it to the documented default ("
      << v.tag << " scene) gives\n  " << written.dump() << "\nbut leaving it out gives\n  " << v.written.dump()
      << (same_settings ? "" : "\n(the solver reads its settings differently)");
  return Outcome::checked;
}

/// The row against the value the written scene `v` has at its path (the caller knows it is there).
Outcome check_in(const Row& row, const Variant& v) {
  const json* value = lookup(v.written, row.path);
  EXPECT_TRUE(same(row.literal, *value)) << kReadme << ":" << row.line << ": " << row.text << " but the code gives `"
                                         << value->dump() << "` (" << v.tag << " scene)";
  return Outcome::checked;
}

/// The shapes a row names after its path; empty when it names none.
std::vector<const Variant*> named_shapes(const Row& row, const std::vector<Variant>& all) {
  static const char* const kShapes[] = {"box", "sphere", "capsule", "cylinder", "torus", "mesh"};
  static const std::regex kWord(R"([A-Za-z_]+)");
  std::set<std::string> words;
  for (auto it = std::sregex_iterator(row.qualifier.begin(), row.qualifier.end(), kWord);
       it != std::sregex_iterator(); ++it) {
    words.insert(it->str());
  }
  std::vector<const Variant*> out;
  for (const char* shape : kShapes) {
    if (!words.contains(shape)) continue;
    for (const Variant& v : all) {
      if (v.tag == shape) out.push_back(&v);
    }
  }
  return out;
}

Outcome check_row(const Row& row, const std::vector<Variant>& all, std::string& why) {
  std::vector<const Variant*> candidates = named_shapes(row, all);
  const bool per_shape = !candidates.empty();
  if (!per_shape) {
    for (const Variant& v : all) candidates.push_back(&v);
  }
  // Scenes that set the field themselves say nothing about its default.
  std::erase_if(candidates, [&](const Variant* v) { return v->given.contains(row.path); });
  if (candidates.empty()) {
    why = "every scene sets it";
    return Outcome::skipped;
  }
  if (per_shape) {
    for (const Variant* v : candidates) {
      SCOPED_TRACE(row.text + " for a " + v->tag);
      if (lookup(v->written, row.path) != nullptr) {
        check_in(row, *v);
      } else if (check_by_insertion(row, *v, why) == Outcome::skipped) {
        return Outcome::skipped;
      }
    }
    return Outcome::checked;
  }
  for (const Variant* v : candidates) {
    if (lookup(v->written, row.path) != nullptr) return check_in(row, *v);
  }
  return check_by_insertion(row, *candidates.front(), why);
}

// ---------------------------------------------------------------- the test

TEST(ReadmeDefaults, EveryDocumentedDefaultIsTheCodesDefault) {
  std::ifstream in(kReadme);
  ASSERT_TRUE(in.is_open()) << "cannot read " << kReadme;
  int rows_without_literal = 0;
  const std::vector<Row> rows = read_rows(in, rows_without_literal);
  const std::vector<Variant> all = variants();

  std::size_t checked = 0;
  std::vector<std::string> skipped;
  for (const Row& row : rows) {
    std::string why;
    if (check_row(row, all, why) == Outcome::checked) {
      ++checked;
    } else {
      skipped.push_back(std::to_string(row.line) + ": " + row.text + " (" + why + ")");
    }
  }

  std::cout << "README defaults: " << checked << " rows checked, " << skipped.size() << " skipped, "
            << rows_without_literal << " without a literal default (required / absent / —)\n";
  for (const std::string& s : skipped) std::cout << "  skipped " << s << '\n';
  EXPECT_GE(checked, kMinimumCheckedRows)
      << "too few README rows were checked: the field tables must use the header " << kFieldTableHeader
      << " and backticked JSON paths and literals";
}

}  // namespace
}  // namespace affix
