#pragma once
// Fuzzing the readers of a run's output directory (`affix view`, `affix render`): a tiny real run made
// in-process at test start, and a seeded, deterministic mutator of its four files — meshes.json and
// summary.json mutated as JSON documents (a node replaced by a nasty value or removed, an array made
// odd, a body renamed or duplicated, nesting deeper than any parser should recurse) and as text
// (truncated, bytes flipped), trajectory.csv and stats.csv as lines and fields (truncated lines, extra
// and missing columns, garbage tokens, huge numbers, rows swapped, bytes flipped). The same seed gives
// the same case on every machine: std::mt19937_64's sequence is fixed by the standard, and ranges are
// taken from it by hand (the standard's distributions differ between libraries).
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "affix/error.hpp"
#include "affix/app/run_scene.hpp"
#include "affix/scene/scene_loader.hpp"
#include "support/run_command.hpp"

namespace affix::test {

namespace fs = std::filesystem;

/// The four files `affix view` reads (`affix render` reads the first two).
inline const std::vector<std::string> kRunFiles = {"meshes.json", "trajectory.csv", "stats.csv", "summary.json"};

/// Simulates a box and a sphere falling towards the ground for 0.1 s into `dir`, exactly as `affix run`
/// writes a run: six frames of two bodies, five steps; the trajectory as `format` says (default csv).
inline void write_tiny_run(const fs::path& dir, std::optional<TrajectoryFormat> format = {}) {
  const nlohmann::json scene = nlohmann::json::parse(R"({
    "version": 1,
    "settings": {"dt": 0.02, "duration": 0.1},
    "ground": {"height": 0.0},
    "bodies": [
      {"name": "box", "shape": {"box": [0.5, 0.5, 0.5]}, "position": [0, 0, 1.0]},
      {"name": "ball, \"quoted\"", "shape": {"sphere": 0.3}, "position": [1.2, 0, 0.8]}
    ]})");
  RunOptions options;
  options.out_dir = dir;
  options.quiet = true;
  options.format = format;
  run_scene(parse_scene(scene, dir / "tiny.json"), options);
}

/// A run's files in memory: name → contents.
using RunFiles = std::map<std::string, std::string>;

inline RunFiles load_run_files(const fs::path& dir) {
  RunFiles files;
  for (const std::string& name : kRunFiles) {
    std::ifstream in(dir / name, std::ios::binary);
    files[name] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return files;
}

inline void save_run_files(const fs::path& dir, const RunFiles& files) {
  fs::create_directories(dir);
  for (const auto& [name, text] : files) std::ofstream(dir / name, std::ios::binary | std::ios::trunc) << text;
}

/// Mutates copies of a run's files, one case per seed.
class RunOutputMutator {
 public:
  explicit RunOutputMutator(std::uint64_t seed) : rng_(seed) {}

  /// Mutates one file of `files` (two, now and then) once to three times; returns what it did, for the
  /// failure message.
  std::string mutate(RunFiles& files) {
    std::string done;
    const int file_count = below(10) == 0 ? 2 : 1;
    for (int f = 0; f < file_count; ++f) {
      // meshes.json and trajectory.csv are what both commands read: they get most of the cases.
      const std::uint64_t pick = below(20);
      const std::string name = pick < 7 ? "meshes.json" : pick < 13 ? "trajectory.csv" : pick < 17 ? "stats.csv" : "summary.json";
      const int times = 1 + static_cast<int>(below(3));
      for (int t = 0; t < times; ++t) {
        std::string& text = files[name];
        const std::string what = name.ends_with(".json") ? mutate_json(text, name == "meshes.json") : mutate_csv(text);
        done += (done.empty() ? "" : "; ") + name + ": " + what;
      }
    }
    return done;
  }

 private:
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  template <typename T>
  const T& one_of(const std::vector<T>& items) { return items[below(items.size())]; }

  // ------------------------------------------------------------------ text, any file

  std::string mutate_text(std::string& text) {
    switch (below(4)) {
      case 0: {
        const std::size_t at = below(text.size() + 1);
        text.resize(at);
        return "truncated at byte " + std::to_string(at);
      }
      case 1: {
        const int n = 1 + static_cast<int>(below(8));
        for (int i = 0; i < n && !text.empty(); ++i) text[below(text.size())] = static_cast<char>(below(256));
        return "flipped " + std::to_string(n) + " bytes";
      }
      case 2: {
        const std::size_t at = below(text.size() + 1);
        const std::string nasty = one_of<std::string>({"\n", "\r", "\"", ",", "[", "{", "\\", std::string(1, '\0'),
                                                       "\xff\xfe", "\xe2\x82", "1e999", "-", "NaN"});
        text.insert(at, nasty);
        return "inserted a nasty token at byte " + std::to_string(at);
      }
      default: {
        const std::size_t depth = chance(50) ? 300 : 100'000;
        const std::size_t at = below(text.size() + 1);
        text.insert(at, std::string(depth, '['));
        return "inserted " + std::to_string(depth) + " open brackets at byte " + std::to_string(at);
      }
    }
  }

  // ------------------------------------------------------------------ JSON files

  nlohmann::json nasty_value(std::size_t vertex_count) {
    using nlohmann::json;
    switch (below(24)) {
      case 0: return -1;
      case 1: return vertex_count;  // one past the last vertex
      case 2: return vertex_count + 1 + below(1000);
      case 3: return 2147483647;
      case 4: return 2147483648LL;
      case 5: return -2147483649LL;
      case 6: return std::numeric_limits<std::int64_t>::min();
      case 7: return std::numeric_limits<std::uint64_t>::max();
      case 8: return 1.5;
      case 9: return 1e308;
      case 10: return -1e308;
      case 11: return 4.9e-324;
      case 12: return "3";
      case 13: return "";
      case 14: return nullptr;
      case 15: return true;
      case 16: return json::array();
      case 17: return json::object();
      case 18: return json::array({1, 2});
      case 19: return json{{"height", 0}};
      case 20: return std::string(100'000, 'x');
      case 21: return json(std::vector<int>(100'000, 0));
      case 22: {
        json deep = json::array();
        for (int i = 0; i < 200; ++i) deep = json::array({deep});
        return deep;
      }
      default: return -0.0;
    }
  }

  /// Pointers to every value of `doc`, the root included.
  static void collect(const nlohmann::json& value, const nlohmann::json::json_pointer& at,
                      std::vector<nlohmann::json::json_pointer>& out) {
    out.push_back(at);
    if (value.is_object())
      for (const auto& item : value.items()) collect(item.value(), at / item.key(), out);
    else if (value.is_array())
      for (std::size_t i = 0; i < value.size(); ++i) collect(value[i], at / i, out);
  }

  std::string mutate_json(std::string& text, bool meshes) {
    if (chance(25)) return mutate_text(text);
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) return mutate_text(text);  // an earlier mutation broke it already
    std::string what = meshes && chance(50) ? mutate_meshes(doc) : mutate_node(doc);
    text = doc.dump();
    if (chance(10)) {
      text.resize(below(text.size() + 1));
      what += ", then truncated";
    }
    return what;
  }

  /// A random value anywhere in the document replaced, removed, duplicated, or given a sibling.
  std::string mutate_node(nlohmann::json& doc) {
    std::vector<nlohmann::json::json_pointer> nodes;
    collect(doc, nlohmann::json::json_pointer(), nodes);
    const nlohmann::json::json_pointer at = nodes[below(nodes.size())];
    const std::string where = at.to_string().empty() ? "(root)" : at.to_string();
    const std::uint64_t op = at.empty() ? 0 : below(4);
    if (op == 0) {
      doc[at] = nasty_value(8);
      return where + " replaced by a nasty value";
    }
    nlohmann::json& parent = doc[at.parent_pointer()];
    if (op == 1) {
      if (parent.is_object()) parent.erase(at.back());
      else parent.erase(static_cast<std::size_t>(std::stoull(at.back())));
      return where + " removed";
    }
    if (op == 2 && parent.is_array()) {
      parent.push_back(parent[static_cast<std::size_t>(std::stoull(at.back()))]);
      return where + " duplicated at the end";
    }
    if (parent.is_object()) {
      parent["unknown_key"] = 1;
      return "unknown key beside " + where;
    }
    parent.push_back(nasty_value(8));
    return "nasty value appended beside " + where;
  }

  /// The mistakes that matter to a mesh reader, aimed at a random body.
  std::string mutate_meshes(nlohmann::json& doc) {
    if (!doc.is_object() || !doc.contains("bodies") || !doc["bodies"].is_array() || doc["bodies"].empty())
      return mutate_node(doc);
    nlohmann::json& bodies = doc["bodies"];
    const std::size_t b = below(bodies.size());
    nlohmann::json& body = bodies[b];
    if (!body.is_object()) return mutate_node(doc);
    const std::string at = "bodies[" + std::to_string(b) + "]";
    const std::size_t vertex_count = body.contains("vertices") && body["vertices"].is_array() ? body["vertices"].size() / 3 : 0;
    const auto array_of = [&](const char* key) -> nlohmann::json* {
      return body.contains(key) && body[key].is_array() && !body[key].empty() ? &body[key] : nullptr;
    };
    switch (below(10)) {
      case 0:
      case 1:
        if (nlohmann::json* t = array_of("triangles")) {
          (*t)[below(t->size())] = nasty_value(vertex_count);
          return at + ".triangles: an index replaced by a nasty value";
        }
        break;
      case 2:
        if (nlohmann::json* v = array_of("vertices")) {
          (*v)[below(v->size())] = nasty_value(vertex_count);
          return at + ".vertices: a coordinate replaced by a nasty value";
        }
        break;
      case 3:
        if (nlohmann::json* a = array_of(chance(50) ? "vertices" : "triangles")) {
          const std::size_t n = 1 + below(2);
          for (std::size_t i = 0; i < n && !a->empty(); ++i) a->erase(a->size() - 1);
          return at + ": an array shortened by " + std::to_string(n);
        }
        break;
      case 4:
      {
        const nlohmann::json& other = bodies[below(bodies.size())];
        const bool copy = chance(50) && other.is_object() && other.contains("name");
        body["name"] = copy ? other["name"] : nlohmann::json("not in the trajectory");
      }
        return at + ".name changed";
      case 5:
        bodies.push_back(body);
        return at + " duplicated at the end";
      case 6:
        bodies.erase(b);
        return at + " removed";
      case 7:
        doc["ground"] = one_of<nlohmann::json>({nlohmann::json::object(), nlohmann::json{{"height", "0"}},
                                                nlohmann::json{{"height", 1e300}}, 5, nlohmann::json::array()});
        return "ground replaced";
      case 8:
        doc["version"] = one_of<nlohmann::json>({2, 0, "1", nullptr, 1.0});
        return "version replaced";
      default:
        body.erase(one_of<std::string>({"name", "vertices", "triangles"}));
        return at + ": a key removed";
    }
    return mutate_node(doc);
  }

  // ------------------------------------------------------------------ CSV files

  std::string garbage_token() {
    return one_of<std::string>({"", " ", "abc", "nan", "-nan", "inf", "-inf", "+inf", "1e999", "-1e999", "1e308",
                                "-1e308", "4.9e-324", "0x1p3", "2147483647", "2147483648", "-1", "-0", "1.5",
                                "99999999999999999999999", "\"", "\"\"", "\"a,b\"", "\xff\xfe", "\x01", "+", "-",
                                "1e", ".", "\xd9\xa3", std::string(5000, '9'), "box", "ball", "0", "1"});
  }

  static std::vector<std::string> split(const std::string& text, char by) {
    std::vector<std::string> parts(1);
    for (char c : text) {
      if (c == by) parts.emplace_back();
      else parts.back() += c;
    }
    return parts;
  }

  static std::string join(const std::vector<std::string>& parts, char by) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(1, by) : "") + parts[i];
    return out;
  }

  std::string mutate_csv(std::string& text) {
    if (chance(15)) return mutate_text(text);
    std::vector<std::string> lines = split(text, '\n');
    if (lines.size() < 2) return mutate_text(text);
    // The last element is what follows the final '\n' (usually nothing): leave it be.
    const std::size_t count = lines.size() - 1;
    const std::size_t l = below(count);
    std::string what = "line " + std::to_string(l + 1);
    std::vector<std::string> fields = split(lines[l], ',');
    switch (below(12)) {
      case 0: lines.erase(lines.begin() + static_cast<long>(l)); what += " removed"; break;
      case 1: lines.insert(lines.begin() + static_cast<long>(l), lines[l]); what += " duplicated"; break;
      case 2: std::swap(lines[l], lines[below(count)]); what += " swapped with another"; break;
      case 3: lines.insert(lines.begin() + static_cast<long>(l), chance(50) ? "" : "\r"); what += ": blank line before"; break;
      case 4:
        lines[l].resize(below(lines[l].size() + 1));
        what += " truncated";
        break;
      case 5:
        fields.erase(fields.begin() + static_cast<long>(below(fields.size())));
        lines[l] = join(fields, ',');
        what += ": a field removed";
        break;
      case 6:
        fields.insert(fields.begin() + static_cast<long>(below(fields.size() + 1)), garbage_token());
        lines[l] = join(fields, ',');
        what += ": a field added";
        break;
      case 7:
      case 8:
      case 9:
        fields[below(fields.size())] = garbage_token();
        lines[l] = join(fields, ',');
        what += ": a field replaced by a garbage token";
        break;
      case 10:
        lines[l] = chance(90) ? garbage_token() : std::string(2'000'000, 'x');
        what += " replaced by garbage";
        break;
      default:
        lines.resize(l + 1);
        lines.push_back("");
        what += " and all after it kept, the rest dropped";
        break;
    }
    text = join(lines, '\n');
    return what;
  }

  std::mt19937_64 rng_;
};

/// How many cases to run: AFFIX_READER_FUZZ_CASES when set (to run more, or to bisect), else `standard`.
inline int fuzz_cases(int standard) {
  const char* text = std::getenv("AFFIX_READER_FUZZ_CASES");
  return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : standard;
}

/// Copies a failing case's directory to <tmp>/affix_reader_fuzz_<seed> (the test's own directories go
/// when it ends), and says where, so that the files can be looked at and fed to the executable.
inline void keep_failed_case(const fs::path& dir, std::uint64_t seed) {
  const fs::path kept = fs::temp_directory_path() / ("affix_reader_fuzz_" + std::to_string(seed));
  std::error_code error;
  fs::remove_all(kept, error);
  fs::copy(dir, kept, fs::copy_options::recursive, error);
  ADD_FAILURE() << "seed " << seed << ": the failing case's files are in " << kept.string();
}

/// Whether AFFIX_FUZZ_TRACE is set: then each case is printed before it runs, and its outcome after, so that a crash (which
/// no test framework survives) can be traced to its seed.
inline bool fuzz_trace() { return std::getenv("AFFIX_FUZZ_TRACE") != nullptr; }

/// Runs `read` (the reading a command does) on the mutated run in `dir`. It passes when it returns, or
/// throws an InputError whose message is one line starting with the path of one of the run's files;
/// anything else — another exception, a message that names no file — fails the test, naming the seed
/// and the mutation so that the case can be replayed.
template <typename Read>
void expect_input_error_at_worst(Read&& read, const fs::path& dir, std::uint64_t seed, const std::string& what) {
  try {
    read();
    if (fuzz_trace()) std::cerr << "  read\n";
  } catch (const InputError& e) {
    const std::string message = e.what();
    if (fuzz_trace()) std::cerr << "  " << message << '\n';
    bool names_a_file = false;
    for (const std::string& name : kRunFiles) names_a_file = names_a_file || message.starts_with((dir / name).string() + ": ");
    EXPECT_TRUE(names_a_file) << "seed " << seed << " (" << what << "): the message names no file: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "seed " << seed << " (" << what << "): " << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "seed " << seed << " (" << what << "): not an InputError: " << e.what();
  } catch (...) {
    ADD_FAILURE() << "seed " << seed << " (" << what << "): a non-standard exception";
  }
}

/// Runs the `affix` executable with `args`: it must exit 0 or 2 — never another status, never killed
/// by a signal — and on 2 print exactly one line, `affix: error: ...`, with no C++ exception's name.
inline void expect_clean_exit(const std::vector<std::string>& args, const std::string& what) {
  ASSERT_TRUE(fs::exists(AFFIX_EXECUTABLE)) << AFFIX_EXECUTABLE << " is not built (build the `affix` target)";
  std::vector<std::string> argv = {AFFIX_EXECUTABLE};
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandResult result = run_command(argv);
  EXPECT_TRUE(result.exit_code == 0 || result.exit_code == 2)
      << what << ": exit " << result.exit_code << " (128 + n: signal n); stderr: " << result.err;
  if (result.exit_code == 2) {
    EXPECT_TRUE(result.err.starts_with("affix: error: ")) << what << ": " << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << what << ": not one line: " << result.err;
    EXPECT_EQ(result.err.find("std::"), std::string::npos) << what << ": " << result.err;
  }
}

/// The fixture of a reader fuzz test: a tiny real run written once per suite into a scratch directory
/// named after `Derived::kScratchName`, and mutated copies of it, each in a directory of its own.
template <typename Derived>
class RunOutputFuzzTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::temp_directory_path() / (std::string(Derived::kScratchName) + std::to_string(::getpid()));
    fs::remove_all(root_);
    write_tiny_run(root_ / "pristine");
    pristine_ = std::make_unique<RunFiles>(load_run_files(root_ / "pristine"));
  }
  static void TearDownTestSuite() {
    fs::remove_all(root_);
    pristine_.reset();
  }

  /// The run mutated by `seed` in its own directory; `what` says how.
  static fs::path mutated(std::uint64_t seed, std::string& what) {
    RunFiles files = *pristine_;
    what = RunOutputMutator(seed).mutate(files);
    const fs::path dir = root_ / ("case_" + std::to_string(seed));
    fs::remove_all(dir);
    save_run_files(dir, files);
    return dir;
  }

  /// The pristine run with meshes.json changed by `edit`, in the directory `name`.
  static fs::path with_meshes(const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    RunFiles files = *pristine_;
    nlohmann::json meshes = nlohmann::json::parse(files["meshes.json"]);
    edit(meshes);
    files["meshes.json"] = meshes.dump();
    const fs::path dir = root_ / name;
    save_run_files(dir, files);
    return dir;
  }

  static inline fs::path root_;
  static inline std::unique_ptr<RunFiles> pristine_;
};

}  // namespace affix::test
